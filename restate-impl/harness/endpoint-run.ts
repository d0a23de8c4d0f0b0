/**
 * One cell's endpoint, as the harness drives it: src/endpoint.ts serving the workflow, and around
 * it what a deploy script and a client do for one run: register the cell's deployment, submit the
 * run if nobody has, and leave once it has ended. Each cell deploys the service under a name of its own (service-name.ts).
 */
import { startCalled } from '@vendor-review/instrument';
import { isConnectionLoss, parseCli, sleep, UsageError, workerPool } from '@vendor-review/worker-io';
import {
  attachReview,
  pinnedDeployment,
  registerDeployment,
  RestateHttpError,
  sendApproval,
  submitReview,
  type RestateUrls,
} from '../src/client.ts';
import { readEndpointConfig, serveReviewEndpoint, type ServeOptions } from '../src/endpoint.ts';
import { RESTATE_RUNS } from '../src/store.ts';
import { deploymentCheckLine, DEPLOYMENT_CHECK_EXIT } from './deployment-check.ts';
import { serviceNameFor } from './service-name.ts';

export const ENDPOINT_RUN_USAGE = `usage: restate worker --run <runId>
  serves the run's workflow, registers the cell's deployment with the Restate server, starts the
  run if nobody has, and leaves once it has ended
  (DATABASE_URL, WORLD_URL, RESTATE_INGRESS_URL, RESTATE_ADMIN_URL, ENDPOINT_SOCKET or PORT,
  DEPLOYMENT_URL, WORKER_NAME, RETRY_INITIAL_INTERVAL_MS, INACTIVITY_TIMEOUT_MS, ABORT_TIMEOUT_MS)`;

export interface EndpointRunConfig {
  runId: string;
  urls: RestateUrls;
  /** The address registered as the cell's deployment, which reaches this endpoint. */
  deploymentUrl: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new UsageError(`${name} is not set`);
  return value;
}

export function readEndpointRunConfig(argv: string[] = process.argv.slice(2)): EndpointRunConfig {
  const args = parseCli({ usage: ENDPOINT_RUN_USAGE, options: { run: { type: 'string' } } }, argv);
  const runId = args.values.run;
  if (!runId) throw new UsageError('--run <runId> is required');
  // Behind the router a socket; registered directly, a port the deployment's address names.
  if (!process.env.ENDPOINT_SOCKET && !process.env.PORT) throw new UsageError('ENDPOINT_SOCKET or PORT is not set');
  return {
    runId,
    urls: { ingressUrl: required('RESTATE_INGRESS_URL'), adminUrl: required('RESTATE_ADMIN_URL') },
    deploymentUrl: required('DEPLOYMENT_URL'),
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
export async function serveRun(config: EndpointRunConfig, sdk: ServeOptions['sdk'] = {}): Promise<number> {
  const { runId, urls, deploymentUrl } = config;
  const endpointConfig = readEndpointConfig();
  const pool = workerPool(endpointConfig.databaseUrl, 1);
  try {
    const run = await RESTATE_RUNS.load(pool, runId);
    if (!run) throw new UsageError(`no Restate run ${runId}`);
    const hardened = run.variant === 'hardened';
    const service = serviceNameFor(runId);
    const endpoint = await serveReviewEndpoint(
      { ...endpointConfig, serviceName: service },
      { sdk, drainOnSigterm: hardened },
    );
    const deployment = await registered(() => untilAnswered(() => registerDeployment(urls, deploymentUrl)));
    const input = { runId, variant: run.variant, granularity: run.granularity, request: run.request };
    // Every process of the run submits it (the server keeps one run per workflow key): A's submit is the start call.
    await startCalled(`run=${runId}`);
    await untilAnswered(() => submitReview(urls, service, input));
    // The server keeps an invocation on the deployment it started on, and will never hand it to
    // this one: hardened says so and leaves, instead of waiting beside it in silence.
    const pinned = await untilAnswered(() => pinnedDeployment(urls, service, runId));
    if (hardened && pinned && pinned !== deployment) {
      process.stderr.write(`${deploymentCheckLine(runId, pinned, deployment)}\n`);
      await endpoint.close();
      return DEPLOYMENT_CHECK_EXIT;
    }
    // A decision that came before the service was registered (adapter.approve kept it): send it on now.
    const early = await RESTATE_RUNS.keptDecision(pool, runId);
    if (early) await untilAnswered(() => sendApproval(urls, service, runId, early));
    // A workflow that failed is the run's outcome, not the worker's.
    await untilAnswered(() => attachReview(urls, service, runId)).catch((err: unknown) => {
      if (!(err instanceof RestateHttpError)) throw err;
    });
    await endpoint.close();
    return 0;
  } finally {
    await pool.end();
  }
}
