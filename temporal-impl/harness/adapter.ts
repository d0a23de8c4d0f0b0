import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import type { Decision, ReviewRequestInput, RunView } from '@vendor-review/pipeline';
import {
  newRunOf,
  type DurableRecord,
  type RunConfig,
  type RunHandle,
  type RuntimeAdapter,
  type WorkerSpec,
} from '@vendor-review/conformance';
import { STOP_GRACE_MS } from '@vendor-review/instrument';
import { approveRun, getRun, RunNotFoundError, runStatus, startRun } from '../src/client.ts';
import { temporalDrills } from './drills.ts';
import { toDurableRecord } from './durable-record.ts';
import { TEMPORAL } from './info.ts';
import { readHistory } from './history.ts';
import { pendingTasks } from './in-flight.ts';
import { workflowIdFor } from '../src/identity.ts';
import { SHUTDOWN_TEARDOWN_MS } from '../src/worker-options.ts';
import { HARNESS_WORKER_ENTRY } from './paths.ts';
import { START_RUN_ENV, type StartRunInput } from './start-run.ts';
import type { TemporalServer } from './server/spec.ts';

/**
 * How long a hardened worker asked to stop (SIGTERM) lets the activities in flight finish: inside
 * the grace the harness, as an orchestrator would, gives the process before it kills it
 * (STOP_GRACE_MS), with time left to report the results and close the connection.
 */
const HARDENED_SHUTDOWN_GRACE_MS = STOP_GRACE_MS - SHUTDOWN_TEARDOWN_MS;

export interface TemporalAdapterOptions {
  /**
   * How the harness reaches the server (address, TLS, API key), the namespace, and the environment
   * its workers need to connect the same way.
   */
  temporal: Pick<TemporalServer, 'connection' | 'namespace' | 'workerEnv'>;
  /** Where hardened workers keep the outbox and the dead letters. */
  databaseUrl: string;
  worldUrl: string;
  /** The prebuilt workflow bundle every worker loads (see cachedWorkflowBundle). */
  bundlePath: string;
  /** A prebuilt worker module; default: the harness's TypeScript entry (paths.ts), run under tsx. */
  workerEntry?: string;
  /** The Temporal UI, when the server outlives the harness (runs are linked); else null. */
  uiUrl: string | null;
  /** Every run's heartbeat timeout (in its workflow input); default: activity-options.ts's. */
  heartbeatTimeoutMs?: number;
  /** Every worker's sticky-queue schedule-to-start timeout; default: worker-options.ts's. */
  stickyScheduleToStartMs?: number;
  /**
   * The task queue a run's workflow and activities go to. Default: one queue per run, so the
   * workers of concurrent runs never take each other's tasks or mail. A pool of workers serving
   * many runs (the chaos campaign) names one queue per variant instead: naive workers get no
   * database, hardened ones drain the outbox of their queue.
   */
  taskQueue?: (runId: string, config: RunConfig) => string;
}

interface TemporalHandle extends RunHandle {
  /** One task queue per run: workers of concurrent runs never take each other's tasks or mail. */
  taskQueue: string;
  /** The start call its workers make (`startInWorker`); until one is accepted the server knows no such workflow. */
  start?: StartRunInput;
}

/** The server's record of a workflow, or null when it knows none by that id. */
function unlessNotFound<T>(read: Promise<T>): Promise<T | null> {
  return read.catch((err: unknown) => {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  });
}

/** The executions the server lists under a workflow id (a run per accepted start). */
async function executions(client: Client, workflowId: string): Promise<number> {
  let n = 0;
  for await (const _ of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) n++;
  return n;
}

export function temporalUiLink(uiUrl: string, namespace: string, workflowId: string, runId: string): string {
  const enc = encodeURIComponent;
  return `${uiUrl.replace(/\/$/, '')}/namespaces/${enc(namespace)}/workflows/${enc(workflowId)}/${enc(runId)}`;
}

export async function createTemporalAdapter(o: TemporalAdapterOptions): Promise<RuntimeAdapter<TemporalHandle>> {
  const namespace = o.temporal.namespace;
  const connection = await Connection.connect(o.temporal.connection as Parameters<typeof Connection.connect>[0]);
  const client = new Client({ connection, namespace });
  const view = (v: RunView): RunView => ({
    status: v.status,
    state: v.state,
    ...(v.reason ? { reason: v.reason } : {}),
  });
  const adapter: RuntimeAdapter<TemporalHandle> = {
    ...TEMPORAL,
    workerExitsWhenDone: false,
    // The server's workflow task timeout (its default, 10 s) is the longest of its own waits here.
    patienceMs: 10_000,
    isRetryableExit: () => false,

    async startRun(
      request: ReviewRequestInput,
      config: RunConfig,
      opts?: { runId?: string; startInWorker?: boolean },
    ): Promise<TemporalHandle> {
      const { runId, granularity } = newRunOf('tm', request, config, opts);
      const taskQueue = o.taskQueue?.(runId, config) ?? `compare-${runId}`;
      const start: StartRunInput = {
        runId,
        taskQueue,
        request,
        variant: config.variant,
        granularity,
        ...(o.heartbeatTimeoutMs === undefined ? {} : { heartbeatMs: o.heartbeatTimeoutMs }),
      };
      // Temporal's run id is the server's answer to the start, which a worker will get.
      if (opts?.startInWorker)
        return {
          runId,
          config,
          durability: null,
          taskQueue,
          start,
          runtimeIds: { workflowId: workflowIdFor(runId) },
          link: null,
        };
      const { heartbeatMs, ...rest } = start;
      const started = await startRun({
        client,
        ...rest,
        ...(heartbeatMs === undefined ? {} : { timeouts: { heartbeatMs } }),
      });
      return {
        runId,
        config,
        durability: null,
        taskQueue,
        runtimeIds: { workflowId: started.workflowId, runtimeRunId: started.runtimeRunId },
        link: o.uiUrl ? temporalUiLink(o.uiUrl, namespace, started.workflowId, started.runtimeRunId) : null,
      };
    },

    workerSpec(h: TemporalHandle, { crashPlan }: { name: string; crashPlan: string | null }): WorkerSpec {
      return {
        entry: o.workerEntry ?? HARNESS_WORKER_ENTRY,
        env: {
          ...o.temporal.workerEnv,
          TASK_QUEUE: h.taskQueue,
          // Naive runs have no outbox: their workers get no database.
          DATABASE_URL: h.config.variant === 'hardened' ? o.databaseUrl : undefined,
          WORLD_URL: o.worldUrl,
          WORKFLOW_BUNDLE: o.bundlePath,
          CRASH_PLAN: crashPlan ?? undefined,
          [START_RUN_ENV]: h.start ? JSON.stringify(h.start) : undefined,
          STICKY_SCHEDULE_TO_START_MS: o.stickyScheduleToStartMs?.toString(),
          // Hardened drains on SIGTERM; naive keeps the SDK's default (worker-options.ts).
          SHUTDOWN_GRACE_MS: h.config.variant === 'hardened' ? String(HARDENED_SHUTDOWN_GRACE_MS) : undefined,
        },
      };
    },

    // A run its workers start is pending until one of them has: the server knows it only from then.
    status: async (h) => {
      const v = await runStatus({ client, runId: h.runId });
      return h.start && v.status === 'not-found' ? { status: 'pending', state: null } : view(v);
    },
    inspect: async (h) => view(await getRun({ client, runId: h.runId })),

    // A signal needs the workflow, which a run its workers start may not have yet: the decision is
    // kept with the start first (the specs of workers spawned from now on carry it), and the
    // worker sends it on once its start is answered. The workflow keeps the first decision only.
    async approve(h: TemporalHandle, d: Decision): Promise<void> {
      if (h.start) h.start = { ...h.start, decision: h.start.decision ?? d };
      await approveRun({ client, runId: h.runId, ...d }).catch((err: unknown) => {
        if (!(h.start && err instanceof RunNotFoundError)) throw err;
      });
    },

    async durableRecord(h: TemporalHandle): Promise<DurableRecord> {
      const workflowId = workflowIdFor(h.runId);
      const [description, listed] = await Promise.all([
        unlessNotFound(client.workflow.getHandle(workflowId).describe()),
        executions(client, workflowId),
      ]);
      // The list is the server's visibility store, written a moment after the start: the describe
      // (the execution itself) says at once whether there is one.
      const runs = Math.max(listed, description ? 1 : 0);
      if (!description) return { runtime: 'temporal', kind: 'history', marks: [], bytes: 0, runs };
      const events = await readHistory({ client, runId: h.runId });
      // The server's own count of the history's bytes (servers from 1.20 on say it).
      return { ...toDurableRecord(events), bytes: description.historySize ?? null, runs };
    },

    async abandon(h: TemporalHandle, reason: string): Promise<void> {
      await client.workflow.getHandle(workflowIdFor(h.runId)).terminate(`abandoned: ${reason}`);
    },

    inFlight: (h) => pendingTasks(client, h.runId),

    async close(): Promise<void> {
      await connection.close();
    },
  };
  const drills = temporalDrills({
    adapter,
    client,
    databaseUrl: o.databaseUrl,
    onServer: (temporal) => createTemporalAdapter({ ...o, temporal }),
  });
  return { ...adapter, drills };
}
