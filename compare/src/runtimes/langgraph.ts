import pg from 'pg';
import * as langgraph from '@vendor-review/langgraph';
import { newRunId, type ReviewRequestInput } from '@vendor-review/domain';
import { fromLangGraph, type DurableRecord } from '../durable.ts';
import type { Durability, Scenario } from '../scenarios.ts';
import type { WorkerSpec } from '../worker-process.ts';
import { APPROVER, type RunHandle, type RunView, type RuntimeAdapter } from './adapter.ts';

export const LEASE_TTL_MS = 3000;

export interface LangGraphAdapterOptions {
  databaseUrl: string;
  worldUrl: string;
  /** A prebuilt worker module; default: the TypeScript entry, run under tsx. */
  workerEntry?: string;
}

export function createLangGraphAdapter(o: LangGraphAdapterOptions): RuntimeAdapter {
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 3 });
  pool.on('error', () => {});
  return {
    runtime: 'langgraph',
    workerExitsWhenDone: true,
    isRetryableExit: (code) => code === langgraph.EXIT.leaseHeld,
    async createRun(s: Scenario, request: ReviewRequestInput): Promise<RunHandle> {
      const runId = newRunId(s.variant === 'naive' ? `lg-${s.durability ?? 'naive'}` : 'lg-hard');
      const created = await langgraph.createRun({
        databaseUrl: o.databaseUrl,
        request,
        variant: s.variant,
        ...(s.durability ? { durability: s.durability } : {}),
        runId,
      });
      const view = await langgraph.getRun({ databaseUrl: o.databaseUrl, runId: created.runId });
      return {
        runId: created.runId,
        variant: s.variant,
        runtimeIds: { threadId: created.threadId },
        link: null,
        durability: (view.durability as Durability | undefined) ?? s.durability,
      };
    },
    workerSpec(h: RunHandle, crashPlan: string | null): WorkerSpec {
      return {
        entry: o.workerEntry ?? langgraph.WORKER_ENTRY,
        args: ['--run', h.runId],
        env: {
          DATABASE_URL: o.databaseUrl,
          WORLD_URL: o.worldUrl,
          CRASH_PLAN: crashPlan ?? undefined,
          // A SIGKILLed worker's lease blocks its successor until it expires: keep that short here
          // (renewals happen well inside it), so recovery is measured, not dominated by the default.
          LEASE_TTL_MS: String(LEASE_TTL_MS),
          APPROVAL_POLL_MS: '100',
        },
      };
    },
    // getRun rebuilds the graph to read the state; polling needs only the status the worker records.
    async status(h: RunHandle): Promise<RunView> {
      const { rows } = await pool.query(`SELECT status FROM ${langgraph.TABLES.runs} WHERE run_id = $1`, [h.runId]);
      const status = rows[0]?.status as RunView['status'] | undefined;
      return status
        ? { status, state: null }
        : { status: 'not-found', state: null, reason: `no run ${h.runId} in ${langgraph.TABLES.runs}` };
    },
    async inspect(h: RunHandle): Promise<RunView> {
      const v = await langgraph.getRun({ databaseUrl: o.databaseUrl, runId: h.runId });
      return { status: v.status, state: v.state };
    },
    async approve(h: RunHandle): Promise<void> {
      await langgraph.approveRun({ databaseUrl: o.databaseUrl, runId: h.runId, approved: true, by: APPROVER });
    },
    async durableRecord(h: RunHandle): Promise<DurableRecord> {
      return fromLangGraph(await langgraph.readDurableRecord({ databaseUrl: o.databaseUrl, runId: h.runId }));
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}
