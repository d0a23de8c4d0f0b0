import {
  granularityOf,
  newRunId,
  runIdPrefix,
  parseReviewRequest,
  type Decision,
  type ReviewRequestInput,
  type RunView,
} from '@vendor-review/pipeline';
import {
  oneRunWorker,
  workerNameOf,
  type DurableRecord,
  type InFlightTask,
  type RunConfig,
  type RunHandle,
  type RuntimeAdapter,
  type RuntimeInfo,
  type WorkerSpec,
} from '@vendor-review/conformance';
import { approveRun } from '../src/approvals.ts';
import { LANGGRAPH } from './info.ts';
import { toDurableRecord } from './durable-record.ts';
import { langGraphDrills } from './drills.ts';
import { defaultDurability } from '../src/durability.ts';
import { EXIT } from '../src/exit-codes.ts';
import { getRun, readCheckpointRows } from './inspect.ts';
import { expireLeasesOf, leaseOwnerOf } from '../src/lease.ts';
import { WORKER_ENTRY } from './paths.ts';
import { createPool } from '../src/pool.ts';
import { insertRun, type LangGraphApi } from '../src/runs.ts';
import { SELECT_LEASE } from '../src/sql.ts';
import { ABANDON_RUN, SELECT_LEASE_REMAINING_MS, SELECT_RUN_STATUS } from './sql.ts';

export interface LangGraphAdapterOptions {
  databaseUrl: string;
  worldUrl: string;
  /** A prebuilt worker module; default: the TypeScript entry, run under tsx. */
  workerEntry?: string;
  /**
   * A killed worker's lease blocks its successor until it expires. Short here (renewals happen
   * well inside it), so recovery is measured, not dominated by the 15 s default.
   */
  leaseTtlMs?: number;
  /**
   * Which LangGraph API the runs are written in, and who the adapter says it is: the StateGraph
   * (default, LANGGRAPH) or the Functional API's entrypoint (functional/adapter.ts).
   */
  api?: { name: LangGraphApi; info: RuntimeInfo; runPrefix: string };
}

export function createLangGraphAdapter(o: LangGraphAdapterOptions): RuntimeAdapter {
  const pool = createPool(o.databaseUrl, { max: 3 });
  const leaseTtlMs = o.leaseTtlMs ?? 3000;
  const api = o.api ?? { name: 'graph', info: LANGGRAPH, runPrefix: 'lg' };
  const adapter: RuntimeAdapter = {
    ...api.info,
    workerExitsWhenDone: true,
    isRetryableExit: (code) => code === EXIT.leaseHeld,
    // A dead worker's lease is what a successor waits for; nothing else of LangGraph's waits.
    patienceMs: leaseTtlMs,
    async holdLapsesInMs(h: RunHandle): Promise<number | null> {
      const row = (await pool.query(SELECT_LEASE_REMAINING_MS, [h.runtimeIds.threadId])).rows[0];
      return row ? Number(row.ms) : null;
    },

    async startRun(request: ReviewRequestInput, config: RunConfig, opts?: { runId?: string }): Promise<RunHandle> {
      parseReviewRequest(request); // a malformed request never becomes a run
      const durability = config.durability ?? defaultDurability(config.variant);
      const granularity = granularityOf(config);
      const { runId, threadId } = await insertRun(pool, {
        request,
        variant: config.variant,
        durability,
        granularity,
        api: api.name,
        runId: opts?.runId ?? newRunId(runIdPrefix(api.runPrefix, { ...config, durability, granularity })),
      });
      return { runId, config, durability, runtimeIds: { threadId }, link: null };
    },

    workerSpec(h: RunHandle, { crashPlan }: { name: string; crashPlan: string | null }): WorkerSpec {
      return oneRunWorker(
        o.workerEntry ?? WORKER_ENTRY,
        h,
        { ...o, crashPlan },
        {
          LEASE_TTL_MS: String(leaseTtlMs),
          APPROVAL_POLL_MS: '100',
        },
      );
    },

    // getRun rebuilds the graph to read the state; a poll needs only the status the worker records.
    async status(h: RunHandle): Promise<RunView> {
      const status = (await pool.query(SELECT_RUN_STATUS, [h.runId])).rows[0]?.status as RunView['status'] | undefined;
      return status ? { status, state: null } : { status: 'not-found', state: null, reason: `no run ${h.runId}` };
    },

    async inspect(h: RunHandle): Promise<RunView> {
      const v = await getRun({ databaseUrl: o.databaseUrl, runId: h.runId });
      const reason = v.error ?? v.stateError;
      return { status: v.status, state: v.state, ...(reason ? { reason } : {}) };
    },

    async approve(h: RunHandle, d: Decision): Promise<void> {
      await approveRun({ databaseUrl: o.databaseUrl, runId: h.runId, ...d });
    },

    async durableRecord(h: RunHandle): Promise<DurableRecord> {
      return toDurableRecord(await readCheckpointRows({ databaseUrl: o.databaseUrl, runId: h.runId }), api.info.name);
    },

    async abandon(h: RunHandle, reason: string): Promise<void> {
      await pool.query(ABANDON_RUN, [h.runId, `abandoned: ${reason}`]);
    },

    async workerGone(_h: RunHandle, worker: { name: string; pid: number }): Promise<void> {
      await expireLeasesOf(pool, leaseOwnerOf(worker.name, worker.pid));
    },

    // A hardened run is handed out whole, to the worker holding its live lease.
    async inFlight(h: RunHandle): Promise<InFlightTask[]> {
      const lease = (await pool.query(SELECT_LEASE, [h.runtimeIds.threadId])).rows[0];
      return lease?.live
        ? [{ step: null, attempt: Number(lease.fencing_token), worker: workerNameOf(lease.owner), fence: 'lease' }]
        : [];
    },

    async close(): Promise<void> {
      await pool.end();
    },
  };
  return { ...adapter, drills: langGraphDrills({ adapter, pool, databaseUrl: o.databaseUrl, api }) };
}
