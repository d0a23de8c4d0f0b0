/**
 * One review executed inside the calling process, as a worker executes it (executeRun: the lease
 * when hardened, the saver, the graph, the approval, the outbox), with the approval recorded
 * before it starts so that no step waits for a person. The benchmark's per-step figures come from
 * here, without a worker process's start.
 */
import type { Durability, Ports, ReviewRequestInput, Variant } from '@vendor-review/pipeline';
import type pg from 'pg';
import { recordApproval } from '../../src/approvals.ts';
import type { CheckpointerKind } from '../../src/checkpointer.ts';
import { executeRun, type ExecuteOutcome } from '../../src/execute-run.ts';
import type { DomainSteps } from '../../src/nodes.ts';
import { insertRun, type LangGraphApi } from '../../src/runs.ts';

export interface RunSpec {
  request: ReviewRequestInput;
  variant: Variant;
  durability: Durability;
  checkpointer: CheckpointerKind;
  /** The StateGraph unless told: `functional` runs the entrypoint (the run row says which to build). */
  api?: LangGraphApi;
}

/** A run registered with its approval already recorded: whoever executes it never waits for a person. */
export async function createApprovedRun(pool: pg.Pool, spec: RunSpec): Promise<{ runId: string; threadId: string }> {
  const ids = await insertRun(pool, spec);
  await recordApproval(pool, ids.runId, { approved: true, by: 'bench' });
  return ids;
}

export async function runReviewInProcess(
  o: RunSpec & { pool: pg.Pool; ports: Ports; leaseTtlMs?: number; worker?: string; steps?: DomainSteps },
): Promise<{ runId: string; threadId: string; outcome: ExecuteOutcome }> {
  const { runId, threadId } = await createApprovedRun(o.pool, o);
  const outcome = await executeRun({
    pool: o.pool,
    runId,
    worker: o.worker ?? 'bench',
    ports: o.ports,
    leaseTtlMs: o.leaseTtlMs ?? 15_000,
    drainOutbox: true,
    approvalPollMs: 20,
    ...(o.steps ? { steps: o.steps } : {}),
  });
  return { runId, threadId, outcome };
}
