/**
 * The endpoint of one run: it serves the run's workflow service (workflow.ts) over HTTP/2 on
 * ENDPOINT_SOCKET, registers DEPLOYMENT_URL (the address the server pushes the service's
 * invocations to, which reaches the newest live endpoint of the run) with the server, starts the
 * run's workflow if nobody has, and returns once it has ended. The server, not this process,
 * decides what runs here: after a lost endpoint it invokes the workflow again at the same address
 * and replays its journal.
 *
 * `serveReviewEndpoint` takes the SDK's own endpoint options (`defaultServiceOptions.hooks`, a
 * logger): worker.ts passes none; whoever composes it differently passes theirs.
 */
import { rmSync } from 'node:fs';
import http2 from 'node:http2';
import * as restate from '@restatedev/restate-sdk';
import {
  isConnectionLoss,
  parseCli,
  sleep,
  StepGate,
  survivesConnectionLoss,
  UsageError,
  workerPorts,
  leaveAfterStepsInFlight,
} from '@vendor-review/worker-io';
import pg from 'pg';
import {
  attachReview,
  pinnedDeployment,
  registerDeployment,
  RestateHttpError,
  sendApproval,
  submitReview,
  type RestateUrls,
} from './client.ts';
import { deploymentCheckLine, DEPLOYMENT_CHECK_EXIT } from './deployment-check.ts';
import { supplyPromiseWithResolvers } from './node20.ts';
import { RESTATE_RUNS } from './store.ts';
import { reviewWorkflow, serviceNameFor } from './workflow.ts';

export const ENDPOINT_USAGE = `usage: restate worker --run <runId>
  serves the run's workflow, registers it with the Restate server, starts the run if nobody has,
  and leaves once it has ended
  (DATABASE_URL, WORLD_URL, RESTATE_INGRESS_URL, RESTATE_ADMIN_URL, ENDPOINT_SOCKET, DEPLOYMENT_URL,
  WORKER_NAME, RETRY_INITIAL_INTERVAL_MS)`;

/** What the endpoint is told by its command line and environment. */
export interface EndpointConfig {
  runId: string;
  databaseUrl: string;
  urls: RestateUrls;
  /** The Unix socket the endpoint listens on. */
  socket: string;
  /** The address registered as the run's deployment, which reaches this endpoint. */
  deploymentUrl: string;
  /** The worker's name in the ledger. */
  worker: string;
  /** The service's retry policy's first wait; unset, the server's. */
  retryInitialIntervalMs?: number;
}

/** The SDK's endpoint options, all but the services (the endpoint serves the review). */
export type ReviewEndpointOptions = Omit<restate.EndpointOptions, 'services'>;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new UsageError(`${name} is not set`);
  return value;
}

/** A whole number of milliseconds from the environment, or undefined when unset. */
function optionalMillis(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${name} must be a whole number of milliseconds, got "${value}"`, { seeHelp: false });
  return n;
}

/**
 * Environment: DATABASE_URL, WORLD_URL (read by the ports), RESTATE_INGRESS_URL, RESTATE_ADMIN_URL,
 * ENDPOINT_SOCKET, DEPLOYMENT_URL, WORKER_NAME, TRACE_STEPS (`pnpm lab worker`), RETRY_INITIAL_INTERVAL_MS.
 */
export function readEndpointConfig(argv: string[] = process.argv.slice(2)): EndpointConfig {
  const args = parseCli({ usage: ENDPOINT_USAGE, options: { run: { type: 'string' } } }, argv);
  const runId = args.values.run;
  if (!runId) throw new UsageError('--run <runId> is required');
  const retryInitialIntervalMs = optionalMillis('RETRY_INITIAL_INTERVAL_MS');
  return {
    runId,
    databaseUrl: required('DATABASE_URL'),
    urls: { ingressUrl: required('RESTATE_INGRESS_URL'), adminUrl: required('RESTATE_ADMIN_URL') },
    socket: required('ENDPOINT_SOCKET'),
    deploymentUrl: required('DEPLOYMENT_URL'),
    worker: process.env.WORKER_NAME ?? 'A',
    ...(retryInitialIntervalMs === undefined ? {} : { retryInitialIntervalMs }),
  };
}

/** A server restarting answers nothing (or 503) for a while: its clients wait for it, as for a database. */
async function untilAnswered<T>(what: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await what();
    } catch (err) {
      const unreachable = isConnectionLoss(err) || (err instanceof TypeError && /fetch failed/.test(err.message));
      if (!unreachable && !(err instanceof RestateHttpError && err.status === 503)) throw err;
      await sleep(200);
    }
  }
}

/**
 * The server asks the deployment address which services it serves before it registers it; that
 * address may come up a moment after this endpoint (a load balancer starting beside it): a refused
 * connection there is tried again for a few seconds.
 */
async function registered<T>(register: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await register();
    } catch (err) {
      const unreachable = err instanceof RestateHttpError && /Connection refused/.test(err.message);
      if (!unreachable || attempt >= 20) throw err;
      await sleep(250);
    }
  }
}

/** Serves the run until its workflow has ended; the exit code (0, or the deployment check's). */
export async function serveReviewEndpoint(
  config: EndpointConfig,
  options: ReviewEndpointOptions = {},
): Promise<number> {
  supplyPromiseWithResolvers();
  const { runId, urls, socket, deploymentUrl, worker } = config;
  const pool = survivesConnectionLoss(new pg.Pool({ connectionString: config.databaseUrl, max: 3 }));
  pool.on('error', () => {});
  try {
    const run = await RESTATE_RUNS.load(pool, runId);
    if (!run) throw new UsageError(`no Restate run ${runId}`);
    const hardened = run.variant === 'hardened';
    const gate = hardened ? new StepGate() : null;
    const { ports, trace } = workerPorts(worker);
    const service = serviceNameFor(runId);
    const workflow = reviewWorkflow(
      service,
      {
        ports,
        worker,
        pool: hardened ? pool : null,
        gate,
        trace,
      },
      { retryInitialIntervalMs: config.retryInitialIntervalMs },
    );
    const endpoint = http2.createServer(restate.createEndpointHandler({ ...options, services: [workflow] }));
    rmSync(socket, { force: true }); // a killed predecessor's socket file: nobody answers there
    await new Promise<void>((resolve, reject) => endpoint.once('error', reject).listen(socket, resolve));
    leaveAfterStepsInFlight(gate);
    process.stdout.write(`READY service=${service} socket=${socket}\n`);
    const deployment = await registered(() => untilAnswered(() => registerDeployment(urls, deploymentUrl)));
    const input = { runId, variant: run.variant, granularity: run.granularity, request: run.request };
    await untilAnswered(() => submitReview(urls, service, input));
    // The server keeps an invocation on the deployment it started on, and will never hand it to
    // this one: hardened says so and leaves, instead of waiting beside it in silence.
    const pinned = await untilAnswered(() => pinnedDeployment(urls, service, runId));
    if (hardened && pinned && pinned !== deployment) {
      process.stderr.write(`${deploymentCheckLine(runId, pinned, deployment)}\n`);
      endpoint.close();
      return DEPLOYMENT_CHECK_EXIT;
    }
    // A decision that came before the service was registered (adapter.approve kept it): send it on now.
    const early = await RESTATE_RUNS.keptDecision(pool, runId);
    if (early) await untilAnswered(() => sendApproval(urls, service, runId, early));
    // A workflow that failed is the run's outcome, not the worker's.
    await untilAnswered(() => attachReview(urls, service, runId)).catch((err: unknown) => {
      if (!(err instanceof RestateHttpError)) throw err;
    });
    endpoint.close();
    return 0;
  } finally {
    await pool.end();
  }
}
