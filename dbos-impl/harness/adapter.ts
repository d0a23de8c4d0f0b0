import { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Decision, ReviewRequestInput, ReviewState, RunView } from '@vendor-review/pipeline';
import {
  newRunOf,
  oneRunWorker,
  type DurableRecord,
  type InFlightTask,
  type RunConfig,
  type RunHandle,
  type RuntimeAdapter,
  type WorkerSpec,
} from '@vendor-review/conformance';
import pg from 'pg';
import { appNameFor, executorIdFor, hardenedVersionFor } from './identity.ts';
import { WORKER_ENTRY } from './paths.ts';
import { DBOS_RUNS } from '../src/store.ts';
import { APPROVAL_TOPIC, approvalKey, STATUS_EVENT, type PhaseEvent } from '../src/workflow.ts';
import { dbosDrills } from './drills.ts';
import { claimOf, toDurableRecord } from './durable-record.ts';
import { DBOS_INFO } from './info.ts';

export interface DbosAdapterOptions {
  /** Our tables and DBOS's system schema (setupDatabase has run on it). */
  databaseUrl: string;
  worldUrl: string;
  /** A prebuilt worker module; default: the TypeScript entry, run under tsx. */
  workerEntry?: string;
}

/** DBOS's workflow statuses, as the harness names them; PENDING says nothing about the approval: the workflow's event does. */
function statusOf(dbosStatus: string, phase: PhaseEvent | null): RunView['status'] {
  switch (dbosStatus) {
    case 'ENQUEUED':
    case 'DELAYED':
      return 'pending';
    case 'PENDING':
      return phase === 'awaiting-approval' ? 'awaiting-approval' : 'running';
    case 'SUCCESS':
      return phase === 'failed' ? 'failed' : 'completed';
    default: // ERROR, CANCELLED, MAX_RECOVERY_ATTEMPTS_EXCEEDED
      return 'failed';
  }
}

export async function createDbosAdapter(o: DbosAdapterOptions): Promise<RuntimeAdapter> {
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 3 });
  pool.on('error', () => {});
  // No application of its own: every run is an application (identity.ts), and the client reads them all.
  const client = await DBOSClient.create({ systemDatabaseUrl: o.databaseUrl, systemDatabasePoolSize: 4 });
  const phaseOf = (runId: string) =>
    client.getEvent<PhaseEvent>(runId, STATUS_EVENT, { timeoutSeconds: 0 }).catch(() => null);

  const view = async (h: RunHandle, full: boolean): Promise<RunView> => {
    const wf = await client.getWorkflow(h.runId);
    if (!wf) {
      // Registered, and no worker has started its workflow yet.
      if (await DBOS_RUNS.load(pool, h.runId)) return { status: 'pending', state: null };
      return { status: 'not-found', state: null, reason: `no DBOS run ${h.runId}` };
    }
    const status = statusOf(wf.status, await phaseOf(h.runId));
    if (!full) return { status, state: null };
    const state = wf.status === 'SUCCESS' ? ((wf.output as ReviewState | undefined) ?? null) : null;
    const reason =
      wf.status === 'SUCCESS' || wf.status === 'PENDING' ? undefined : `DBOS status ${wf.status}: ${String(wf.error)}`;
    return { status, state, ...(reason ? { reason } : {}) };
  };

  const adapter: RuntimeAdapter = {
    ...DBOS_INFO,
    workerExitsWhenDone: true,
    // DBOS moves a run at a worker's launch (its recovery pass) and through its queue, polled every
    // second; nothing of its own waits longer.
    patienceMs: 5_000,
    isRetryableExit: () => false,

    async startRun(request: ReviewRequestInput, config: RunConfig, opts?: { runId?: string }): Promise<RunHandle> {
      const { runId, granularity } = newRunOf('db', request, config, opts);
      await DBOS_RUNS.insert(pool, { runId, variant: config.variant, granularity, request });
      return { runId, config, durability: null, runtimeIds: { workflowId: runId }, link: null };
    },

    workerSpec(h: RunHandle, { crashPlan }: { name: string; crashPlan: string | null }): WorkerSpec {
      return oneRunWorker(
        o.workerEntry ?? WORKER_ENTRY,
        h,
        { ...o, crashPlan },
        {
          DBOS_APP_NAME: appNameFor(h.runId),
          DBOS_EXECUTOR_ID: executorIdFor(h.runId),
          DBOS_APP_VERSION: h.config.variant === 'hardened' ? hardenedVersionFor(h.runId) : undefined,
        },
      );
    },

    status: (h) => view(h, false),
    inspect: (h) => view(h, true),

    // DBOS.send works with no worker alive: the message waits in DBOS's notifications table. But
    // it refuses a workflow that does not exist yet (no worker has started the run): the decision
    // is kept first, and the worker that starts the workflow sends it on. Kept before looking, so
    // either this send or the worker's sees it. The key makes both the same message.
    async approve(h: RunHandle, d: Decision): Promise<void> {
      await DBOS_RUNS.keepDecision(pool, h.runId, d);
      if (await client.getWorkflow(h.runId)) await client.send(h.runId, d, APPROVAL_TOPIC, approvalKey(h.runId));
    },

    async durableRecord(h: RunHandle): Promise<DurableRecord> {
      const [steps, wf] = await Promise.all([client.listWorkflowSteps(h.runId), client.getWorkflow(h.runId)]);
      // One workflow row per id: DBOS's own key, so a count past 1 cannot happen.
      return { ...toDurableRecord(steps ?? [], wf?.recoveryAttempts), runs: wf ? 1 : 0 };
    },

    // One owner at a time (DBOS's owner token): every claim of the workflow, its first start or a
    // recovery by another process, counts in recoveryAttempts, so a higher count means the earlier
    // owner's steps are refused. Which process holds it DBOS does not record.
    async inFlight(h: RunHandle): Promise<InFlightTask[]> {
      const wf = await client.getWorkflow(h.runId);
      return wf?.status === 'PENDING' ? [claimOf(wf.recoveryAttempts)] : [];
    },

    async abandon(h: RunHandle): Promise<void> {
      await client.cancelWorkflow(h.runId);
    },

    async close(): Promise<void> {
      await client.destroy();
      await pool.end();
    },
  };
  return { ...adapter, drills: dbosDrills({ pool, client, adapter }) };
}
