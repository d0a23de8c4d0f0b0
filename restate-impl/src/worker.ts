/**
 * The endpoint a team deploys: `node worker.ts --run <runId>` (endpoint.ts, with the SDK's
 * defaults). Environment: DATABASE_URL, WORLD_URL, RESTATE_INGRESS_URL, RESTATE_ADMIN_URL,
 * ENDPOINT_SOCKET, DEPLOYMENT_URL, WORKER_NAME, TRACE_STEPS, RETRY_INITIAL_INTERVAL_MS.
 */
import { runCli } from '@vendor-review/worker-io';
import { readEndpointConfig, serveReviewEndpoint } from './endpoint.ts';

runCli('restate worker', () => serveReviewEndpoint(readEndpointConfig()));
