/**
 * The endpoint a team deploys: `node worker.ts`, serving the `review` workflow on PORT (9080) or
 * ENDPOINT_SOCKET until it is stopped, with the SDK's defaults. Register its address once per
 * deployment (`restate deployments register http://host:9080`); a client submits the runs.
 * Environment: DATABASE_URL, WORLD_URL, PORT or ENDPOINT_SOCKET, WORKER_NAME, TRACE_STEPS,
 * RETRY_INITIAL_INTERVAL_MS, INACTIVITY_TIMEOUT_MS, ABORT_TIMEOUT_MS.
 */
import { parseCli, runCli } from '@vendor-review/worker-io';
import { readEndpointConfig, serveReviewEndpoint } from './endpoint.ts';

const USAGE = `usage: restate endpoint
  serves the review workflow to the Restate server until stopped
  (DATABASE_URL, WORLD_URL, PORT or ENDPOINT_SOCKET, WORKER_NAME, RETRY_INITIAL_INTERVAL_MS,
  INACTIVITY_TIMEOUT_MS, ABORT_TIMEOUT_MS)`;

runCli('restate endpoint', async () => {
  parseCli({ usage: USAGE, options: {} });
  await serveReviewEndpoint(readEndpointConfig(), { drainOnSigterm: true });
  return new Promise<number>(() => {}); // serves until a signal ends the process
});
