import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import {
  DrillUnavailableError,
  type DeployDrill,
  type Footprint,
  type MemoryDrill,
  type Refusal,
  type RetentionDrill,
  type RunHandle,
  type RuntimeAdapter,
  type RuntimeDrills,
} from '@vendor-review/conformance';
import { startTemporal } from './server/dev-server.ts';
import type { TemporalHandle } from './server/handle.ts';
import type { TemporalServer } from './server/spec.ts';
import pg from 'pg';
import { cachedWorkflowBundle } from '../src/bundle.ts';
import { fetchHistoryJson } from './history.ts';
import { workflowIdFor } from '../src/identity.ts';
import { DEAD_LETTER_TABLE, OUTBOX_TABLE } from '../src/postgres-store.ts';
import { approveSignal } from '../src/definitions.ts';

const VERSIONS = {
  v1: fileURLToPath(new URL('./versions/v1.ts', import.meta.url)),
  unpatched: fileURLToPath(new URL('./versions/v2-unpatched.ts', import.meta.url)),
};
const building = new Map<keyof typeof VERSIONS, Promise<string>>();

/**
 * Another release's workflow bundle, built once per process and cached on disk (cachedWorkflowBundle)
 * under a name of its own: `<version>-workflow-bundle`, which no other cache entry's prefix covers.
 */
function versionBundle(version: keyof typeof VERSIONS): Promise<string> {
  let built = building.get(version);
  if (!built) {
    built = cachedWorkflowBundle({ workflowsPath: VERSIONS[version], name: `${version}-workflow-bundle` }).then(
      (b) => b.path,
      (err: unknown) => {
        building.delete(version); // the next caller tries again
        throw err;
      },
    );
    building.set(version, built);
  }
  return built;
}

/**
 * The encoding an encryption codec writes on a payload. The drill sends an approval in it, as a
 * client deployed with the codec before the workers got it would.
 */
export const FOREIGN_ENCODING = 'binary/encrypted';

/** temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_SCHEDULED: not handed to a poller. */
const TASK_SCHEDULED = 1;

/** The last workflow task a worker failed, from the history: the server records the first failure of a task, with the worker's error. */
async function failedWorkflowTask(client: Client, runId: string): Promise<Refusal | null> {
  let events: Record<string, unknown>[];
  try {
    events = (await fetchHistoryJson(client, workflowIdFor(runId))).events;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
  const failed = events.filter((e) => String(e.eventType).endsWith('WORKFLOW_TASK_FAILED')).at(-1);
  if (!failed) return null;
  const attrs = (failed.workflowTaskFailedEventAttributes ?? {}) as {
    cause?: string;
    failure?: { message?: string };
    identity?: string;
  };
  const cause = String(attrs.cause ?? 'unknown').replace(/^WORKFLOW_TASK_FAILED_CAUSE_/, '');
  const message = (attrs.failure?.message ?? '').split('\n')[0]!.trim();
  return {
    kind: /NON_DETERMINISTIC/.test(cause)
      ? 'nondeterminism'
      : /encoding/i.test(message)
        ? 'unknown-encoding'
        : cause.toLowerCase().replace(/_/g, '-'),
    where: `history event ${String(failed.eventId)}: workflow task failed on worker ${attrs.identity ?? '?'} (cause ${cause}); the run waits, retried without end`,
    error: message,
  };
}

/** temporal.api.enums.v1: TaskQueueKind NORMAL, TaskQueueType WORKFLOW. */
const KIND_NORMAL = 1;
const TYPE_WORKFLOW = 1;

/**
 * Workflow tasks in the backlog of a task queue, summed over its partitions (the dev server has
 * four, and a task lands in any one). Each partition is described on its own, with the legacy
 * status, which is read live: the aggregated `reportStats` count is cached for seconds
 * (TaskQueueInfoByBuildIdTTL), and a describe of the root counts the root partition only.
 */
async function workflowBacklog(client: Client, queue: string): Promise<number> {
  const { namespace } = client.options;
  const { workflowTaskQueuePartitions } = await client.workflowService.listTaskQueuePartitions({
    namespace,
    taskQueue: { name: queue, kind: KIND_NORMAL },
  });
  const counts = await Promise.all(
    workflowTaskQueuePartitions.map(async (p) => {
      const described = await client.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: p.key ?? queue, kind: KIND_NORMAL },
        taskQueueType: TYPE_WORKFLOW,
        includeTaskQueueStatus: true,
      });
      return Number(described.taskQueueStatus?.backlogCountHint ?? 0);
    }),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * Waits until the workflow task a payload created (history events after the first `after`) can
 * only go to a live worker. A worker killed a moment earlier may still have a long poll open at
 * the server; a task handed to that poll is started by nobody and times out (start-to-close), and
 * a retry after such a timeout is a transient attempt whose failure the history does not record
 * until a new event arrives. Were the harness's approval to land while the dead poll holds the
 * task, the run would wait with no reason written, however clearly the next worker refuses the
 * payload (a CI run judged the row `broke` so). Done once the task waits, not started, on the
 * run's normal task queue (after the dead worker's sticky queue timed out, or after a dead poll's
 * attempt did) and matching holds it in that queue's backlog. Scheduled in the history is not
 * enough: the history service hands the task to matching afterwards, and a loaded server can take
 * a while, so an open poll may still take it. Matching backlogs a task only when no open poll, on
 * any partition, takes it on arrival. Returns the dead poll's case in words, for the row.
 */
async function payloadTaskOnNormalQueue(client: Client, workflowId: string, after: number): Promise<string | null> {
  const type = (e: Record<string, unknown> | undefined) =>
    String(e?.eventType).replace(/^EVENT_TYPE_WORKFLOW_TASK_/, '');
  let deadPoll: string | null = null;
  await until(async () => {
    const { raw } = await client.workflow.getHandle(workflowId).describe();
    const pending = raw.pendingWorkflowTask;
    const tasks = (await fetchHistoryJson(client, workflowId)).events
      .slice(after)
      .filter((e) => String(e.eventType).startsWith('EVENT_TYPE_WORKFLOW_TASK_'));
    const timedOut = tasks.filter(
      (e) =>
        (e.workflowTaskTimedOutEventAttributes as { timeoutType?: string } | undefined)?.timeoutType ===
        'TIMEOUT_TYPE_START_TO_CLOSE',
    );
    if (timedOut.length > 0) {
      const by = tasks
        .filter((e) => type(e) === 'STARTED')
        .map((e) => (e.workflowTaskStartedEventAttributes as { identity?: string }).identity ?? '?');
      deadPoll = `its workflow task was handed to the killed worker's open poll (${[...new Set(by)].join(', ')}) and timed out ${timedOut.length}×; the next worker met it as a retry`;
    }
    if (!pending) return tasks.length > 0; // none pending any more: completed or failed
    if (pending.state !== TASK_SCHEDULED) return false;
    const last = tasks.at(-1);
    const queue = (last?.workflowTaskScheduledEventAttributes as { taskQueue?: { kind?: string } } | undefined)
      ?.taskQueue;
    // A retry after a start-to-close timeout is a transient attempt: the history does not show it scheduled.
    const onNormalQueue =
      (type(last) === 'SCHEDULED' && queue?.kind !== 'TASK_QUEUE_KIND_STICKY') || (!!last && timedOut.at(-1) === last);
    const normalQueue = raw.executionConfig?.taskQueue?.name;
    if (!onNormalQueue || !normalQueue) return false;
    return (await workflowBacklog(client, normalQueue)) > 0;
  }, 'the payload’s workflow task to wait in the backlog of the run’s task queue');
  return deadPoll;
}

export interface TemporalDrillDeps<H extends RunHandle> {
  adapter: RuntimeAdapter<H>;
  client: Client;
  databaseUrl: string;
  /** An adapter of the same options on another server: the memory drill's throwaway one. */
  onServer(server: Pick<TemporalServer, 'connection' | 'namespace' | 'workerEnv'>): Promise<RuntimeAdapter<H>>;
}

export function temporalDrills<H extends RunHandle>(d: TemporalDrillDeps<H>): RuntimeDrills<H> {
  const { adapter, client } = d;
  const withBundle = (spec: ReturnType<RuntimeAdapter<H>['workerSpec']>, bundle: string) => ({
    ...spec,
    env: { ...spec.env, WORKFLOW_BUNDLE: bundle },
  });

  const deploy: DeployDrill<H> = {
    lastRelease: {
      previous: 'the v1 workflow bundle (VERIFY a scheduled activity)',
      async previousWorker(h, opts) {
        return withBundle(adapter.workerSpec(h, opts), await versionBundle('v1'));
      },
      async leftByPrevious(h) {
        const events = (await fetchHistoryJson(client, workflowIdFor(h.runId))).events;
        const verify = events.filter(
          (e) =>
            String(e.eventType).endsWith('ACTIVITY_TASK_SCHEDULED') &&
            /^VERIFY/.test(String((e.activityTaskScheduledEventAttributes as { activityId?: string })?.activityId)),
        ).length;
        return `a history of ${events.length} events written by v1 code, VERIFY scheduled as an activity ${verify}×`;
      },
      async nextWorker(h, { name }) {
        const spec = adapter.workerSpec(h, { name, crashPlan: null });
        if (h.config.variant === 'hardened') return spec; // today's bundle: the change behind patched()
        return withBundle(spec, await versionBundle('unpatched'));
      },
    },
    async foreignFormat(h) {
      const before = (await fetchHistoryJson(client, workflowIdFor(h.runId))).events.length;
      await client.workflowService.signalWorkflowExecution({
        namespace: client.options.namespace,
        workflowExecution: { workflowId: workflowIdFor(h.runId) },
        signalName: approveSignal.name,
        input: {
          payloads: [
            {
              metadata: { encoding: new TextEncoder().encode(FOREIGN_ENCODING) },
              data: new Uint8Array(Buffer.from(randomUUID())),
            },
          ],
        },
        identity: 'deploy-drill',
        requestId: randomUUID(),
      });
      const deadPoll = await payloadTaskOnNormalQueue(client, workflowIdFor(h.runId), before);
      return `an approval signal whose payload is encoded ${FOREIGN_ENCODING} (a client deployed with an encryption codec the workers do not have)${deadPoll ? `; ${deadPoll}` : ''}`;
    },
  };

  const memory: MemoryDrill<H> = {
    holder: 'a Temporal dev server without --db-filename',
    async open() {
      // A dev server of its own from the CLI, whatever the harness uses: only PATH and the CLI's
      // location are passed on, so no TEMPORAL_ADDRESS or profile turns it into someone else's server.
      const env = { PATH: process.env.PATH, TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH };
      let server: TemporalHandle;
      try {
        server = await startTemporal({ env, namespace: 'default', log: () => undefined });
      } catch (err) {
        throw new DrillUnavailableError(
          `cannot start a throwaway Temporal dev server to lose (${(err as Error).message.slice(0, 160)})`,
        );
      }
      if (server.kind !== 'cli' || !server.restart) {
        await server.stop();
        throw new DrillUnavailableError('no Temporal CLI here: the harness cannot start a dev server it may kill');
      }
      const restart = server.restart.bind(server);
      const onIt = await d.onServer(server);
      return {
        adapter: onIt,
        async lose() {
          await restart({ how: 'kill' });
          return 'the dev server (SIGKILL), started again empty on the same port';
        },
        async close() {
          await onIt.close();
          await server.stop();
        },
      };
    },
  };

  const queryDb = async <T extends pg.QueryResultRow>(sql: string, params: unknown[]) => {
    const db = new pg.Client({ connectionString: d.databaseUrl });
    await db.connect();
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  };
  const describe = (runId: string) =>
    client.workflow
      .getHandle(workflowIdFor(runId))
      .describe()
      .catch((err: unknown) => {
        if (err instanceof WorkflowNotFoundError) return null;
        throw err;
      });

  const retention: RetentionDrill<H> = {
    how: 'DeleteWorkflowExecution for each closed workflow past the window (a namespace’s retention cannot go below 1 h), with the run’s outbox and dead-letter rows',
    async footprint(h): Promise<Footprint> {
      const [description, rows] = await Promise.all([
        describe(h.runId),
        queryDb<{ what: string; n: number; bytes: string }>(
          `SELECT 'outbox rows' AS what, count(*)::int AS n, coalesce(sum(pg_column_size(t.*)), 0)::bigint AS bytes FROM ${OUTBOX_TABLE} t WHERE run_id = $1
           UNION ALL SELECT 'dead letters', count(*)::int, coalesce(sum(pg_column_size(t.*)), 0)::bigint FROM ${DEAD_LETTER_TABLE} t WHERE run_id = $1`,
          [h.runId],
        ),
      ]);
      return {
        items: {
          'history events': description?.historyLength ?? 0,
          ...Object.fromEntries(rows.map((r) => [r.what, r.n])),
        },
        bytes: (description?.historySize ?? 0) + rows.reduce((s, r) => s + Number(r.bytes), 0),
      };
    },
    async purge({ olderThanMs, handles }) {
      const cutoff = Date.now() - olderThanMs;
      const doomed: { runId: string; workflowId: string; temporalRunId: string }[] = [];
      for (const h of handles) {
        const description = await describe(h.runId);
        // Closed and closed before the window; a running workflow (live, or waiting for a signal) is never deleted.
        if (!description || description.status.name === 'RUNNING' || !description.closeTime) continue;
        if (description.closeTime.getTime() >= cutoff) continue;
        doomed.push({ runId: h.runId, workflowId: description.workflowId, temporalRunId: description.runId });
      }
      const requestDeletion = (d: (typeof doomed)[number]) =>
        client.workflowService.deleteWorkflowExecution({
          namespace: client.options.namespace,
          workflowExecution: { workflowId: d.workflowId, runId: d.temporalRunId },
        });
      for (const d of doomed) {
        // The server's delete task waits for the run's close to reach visibility, and backs off while it
        // has not: ask once visibility lists the run as closed.
        await until(async () => {
          for await (const w of client.workflow.list({
            query: `WorkflowId = '${d.workflowId}' AND ExecutionStatus != 'Running'`,
          })) {
            if (w.runId === d.temporalRunId) return true;
          }
          return false;
        }, `visibility to list run ${d.runId} as closed`);
        await requestDeletion(d);
        await queryDb(`DELETE FROM ${OUTBOX_TABLE} WHERE run_id = $1 AND status <> 'pending'`, [d.runId]);
        await queryDb(`DELETE FROM ${DEAD_LETTER_TABLE} WHERE run_id = $1`, [d.runId]);
      }
      // The server deletes asynchronously: done once it no longer knows the runs. A request the server
      // dropped (a restart in between) is made again; asking twice deletes once.
      for (const d of doomed) {
        let asked = Date.now();
        await until(async () => {
          if ((await describe(d.runId)) === null) return true;
          if (Date.now() - asked > 10_000) {
            await requestDeletion(d).catch(() => undefined);
            asked = Date.now();
          }
          return false;
        }, `the server to forget run ${d.runId} after deleting it`);
      }
      const removed = doomed.map((d) => d.runId);
      return { removed };
    },
  };

  return {
    servers: (config) => (config.variant === 'hardened' ? ['temporal', 'postgres'] : ['temporal']),
    explain: async (h) => failedWorkflowTask(client, h.runId),
    deploy,
    memory,
    retention,
  };
}

/** Polls a condition of the server's (every 100 ms) for up to two minutes; the error names what never came. */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > 120_000) throw new Error(`waited 120 s for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
