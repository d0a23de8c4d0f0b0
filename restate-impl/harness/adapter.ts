import type { Decision, ReviewRequestInput, ReviewState, RunView } from '@vendor-review/pipeline';
import {
  newRunOf,
  oneRunWorker,
  type DurableRecord,
  type InFlightTask,
  type RunConfig,
  type RuntimeAdapter,
  type WorkerSpec,
} from '@vendor-review/conformance';
import pg from 'pg';
import { freePort } from '@vendor-review/worker-io';
import { RestateHttpError, reviewOutput, sendApproval, type RestateUrls } from '../src/client.ts';
import { RESTATE_RUNS } from '../src/store.ts';
import type { Phase } from '../src/workflow.ts';
import { serviceNameFor } from './service-name.ts';
import { restateDrills } from './drills.ts';
import type { RestateHandle } from './handle.ts';
import { toDurableRecord } from './durable-record.ts';
import { RESTATE_INFO } from './info.ts';
import { RestateJournal, type InvocationRow } from './journal.ts';
import { WORKER_ENTRY } from './paths.ts';
import { EndpointRouter } from './router.ts';
import type { RestateServer } from './server/spec.ts';

export interface RestateAdapterOptions {
  server: RestateServer;
  /** Our tables (setupDatabase has run on it). */
  databaseUrl: string;
  worldUrl: string;
  /** Where the endpoints' sockets live while the adapter runs. */
  routerDir: string;
  /** A prebuilt worker module; default: the TypeScript entry, run under tsx. */
  workerEntry?: string;
  /** The service's retry policy's first wait (the bench's knob); unset, the server's default. */
  retryInitialIntervalMs?: number;
}

/** A state value as the server keeps it (JSON text), or null. */
function parsed<T>(text: string | undefined): T | null {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The server's invocation status as the harness names it; the workflow's phase says whether it waits for a person. */
function statusOf(inv: InvocationRow, phase: Phase | null): RunView['status'] {
  if (inv.status === 'completed')
    return inv.completion_result === 'success' && phase !== 'failed' ? 'completed' : 'failed';
  // An invocation the server gave up retrying waits for an operator: nothing moves it any more.
  if (inv.status === 'paused') return 'failed';
  if (inv.status === 'pending' || inv.status === 'scheduled' || inv.status === 'inboxed') return 'pending';
  return phase === 'awaiting-approval' ? 'awaiting-approval' : 'running';
}

export async function createRestateAdapter(o: RestateAdapterOptions): Promise<RuntimeAdapter<RestateHandle>> {
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 3 });
  pool.on('error', () => {});
  const urls: RestateUrls = { ingressUrl: o.server.ingressUrl, adminUrl: o.server.adminUrl };
  const journal = new RestateJournal(o.server.adminUrl);
  const router = new EndpointRouter(o.routerDir, o.server.endpointHost);

  const view = async (h: RestateHandle, full: boolean): Promise<RunView> => {
    const inv = await journal.invocation(h.service, h.runId);
    if (!inv) {
      // Registered, and no endpoint has submitted its workflow yet.
      if (await RESTATE_RUNS.load(pool, h.runId)) return { status: 'pending', state: null };
      return { status: 'not-found', state: null, reason: `no Restate run ${h.runId}` };
    }
    const status = statusOf(inv, parsed<Phase>(inv.phase ?? undefined));
    if (!full) return { status, state: null };
    const done = inv.status === 'completed' && inv.completion_result === 'success';
    const output = done ? ((await reviewOutput(urls, h.service, h.runId)) as ReviewState | null) : null;
    const reason =
      inv.status === 'completed' && inv.completion_result !== 'success'
        ? `Restate invocation failed: ${inv.completion_failure ?? '?'}`
        : inv.status === 'paused'
          ? `Restate paused the invocation after its retries: ${inv.last_failure ?? '?'}`
          : undefined;
    return { status, state: output, ...(reason ? { reason } : {}) };
  };

  const adapter: RuntimeAdapter<RestateHandle> = {
    ...RESTATE_INFO,
    workerExitsWhenDone: true,
    // The server retries a lost endpoint with its own backoff (from half a second, doubling): a
    // replaced endpoint is reached within a few seconds, and nothing else of the run waits longer.
    patienceMs: 5_000,
    isRetryableExit: () => false,

    async startRun(request: ReviewRequestInput, config: RunConfig, opts?: { runId?: string }): Promise<RestateHandle> {
      const { runId, granularity } = newRunOf('rs', request, config, opts);
      await RESTATE_RUNS.insert(pool, { runId, variant: config.variant, granularity, request });
      const service = serviceNameFor(runId);
      return {
        runId,
        config,
        durability: null,
        runtimeIds: { workflowId: `${service}/${runId}` },
        link: null,
        service,
        deploymentUrl: await router.deploymentUrl(service),
      };
    },

    workerSpec(h: RestateHandle, { name, crashPlan }: { name: string; crashPlan: string | null }): WorkerSpec {
      router.adopt(h.service, h.deploymentUrl);
      const spec = oneRunWorker(
        o.workerEntry ?? WORKER_ENTRY,
        h,
        { ...o, crashPlan },
        {
          RESTATE_INGRESS_URL: urls.ingressUrl,
          RESTATE_ADMIN_URL: urls.adminUrl,
          ENDPOINT_SOCKET: router.nextSocket(h.service, name),
          DEPLOYMENT_URL: h.deploymentUrl,
          RETRY_INITIAL_INTERVAL_MS: o.retryInitialIntervalMs?.toString(),
          // The SDK's per-invocation lines and its start-up warning would bury the worker's own.
          RESTATE_LOGGING: 'ERROR',
        },
      );
      return { ...spec, listens: ['ENDPOINT_SOCKET'], advertises: ['DEPLOYMENT_URL'] };
    },

    status: (h) => view(h, false),
    inspect: (h) => view(h, true),

    // Sent to the workflow through the server, which holds it while no endpoint is alive. Before
    // any endpoint registered the run's service the server refuses it (404): the decision is kept
    // first, and the worker that registers the service sends it on. Kept before sending, so either
    // this send or the worker's gets through; the key makes both the same invocation.
    async approve(h: RestateHandle, d: Decision): Promise<void> {
      await RESTATE_RUNS.keepDecision(pool, h.runId, d);
      await sendApproval(urls, h.service, h.runId, d).catch((err: unknown) => {
        if (!(err instanceof RestateHttpError && err.status === 404)) throw err;
      });
    },

    async durableRecord(h: RestateHandle): Promise<DurableRecord> {
      const [inv, runs] = await Promise.all([journal.invocation(h.service, h.runId), journal.runs(h.service, h.runId)]);
      if (!inv) return { runtime: 'restate', kind: 'history', marks: [], bytes: 0, runs };
      const rows = await journal.entries(inv.id);
      return { ...toDurableRecord(rows), bytes: rows.reduce((sum, r) => sum + Number(r.raw_length ?? 0), 0), runs };
    },

    // The server hands the invocation to one attempt at a time; a new attempt closes the stream of
    // the one before, so a late result from an earlier attempt has nowhere to go. Its count is the
    // server's: which endpoint process holds the attempt it does not record, and once the invocation
    // completes its row keeps no count at all (retry_count is empty), so its durable record has no claims.
    async inFlight(h: RestateHandle): Promise<InFlightTask[]> {
      const inv = await journal.invocation(h.service, h.runId);
      if (!inv || inv.status === 'completed') return [];
      return [{ step: null, attempt: Math.max(1, inv.retry_count ?? 1), worker: null, fence: 'runtime' }];
    },

    async abandon(h: RestateHandle): Promise<void> {
      const inv = await journal.invocation(h.service, h.runId);
      if (!inv) return;
      const res = await fetch(`${urls.adminUrl}/invocations/${inv.id}/kill`, { method: 'PATCH' });
      if (!res.ok) throw new Error(`killing ${inv.id}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    },

    async close(): Promise<void> {
      await router.close();
      await pool.end();
    },
  };
  // Last release's endpoints answer at an address of their own: its deployment is another one.
  const previousWorker = async (h: RestateHandle, w: { name: string; crashPlan: string | null }) => {
    const spec = adapter.workerSpec(h, w);
    const release = `${h.service}@previous`;
    const env = {
      ...spec.env,
      ENDPOINT_SOCKET: router.nextSocket(release, w.name),
      DEPLOYMENT_URL: await router.deploymentUrl(release),
    };
    return { ...spec, env };
  };
  // Registered at its own port, as `restate deployments register http://host:port` does, with nothing in front.
  const directWorker = async (
    h: RestateHandle,
    w: { name: string; crashPlan: string | null },
    tuned: WorkerSpec['env'],
  ) => {
    const { env, entry, args } = adapter.workerSpec(h, w);
    const port = await freePort();
    return {
      entry,
      args,
      env: {
        ...env,
        ...tuned,
        ENDPOINT_SOCKET: undefined,
        PORT: String(port),
        DEPLOYMENT_URL: `http://${o.server.endpointHost}:${port}`,
      },
    };
  };
  const drills = restateDrills({ journal, pool, urls, adapter, previousWorker, directWorker });
  return { ...adapter, drills };
}
