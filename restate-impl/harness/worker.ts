/**
 * The Restate endpoint as the harness starts it: src/endpoint.ts with crash points laid over it
 * from outside. The calls are watched at the process's HTTP client, the steps at the SDK's `run`
 * interceptor, and the wait for a person in the server's own record of the workflow.
 */
import { installCrashPoints } from '@vendor-review/instrument';
import { runCli } from '@vendor-review/worker-io';
import { readEndpointConfig, serveReviewEndpoint } from '../src/endpoint.ts';
import { stepHooks, watchRunWait } from './crash-sites.ts';

installCrashPoints();

/** A read of the server's SQL a tick, only while the wait is armed; the approval comes seconds later. */
const WAIT_POLL_MS = 100;

runCli('restate worker', async () => {
  const config = readEndpointConfig();
  const stopWatching = watchRunWait(config.urls, config.runId, WAIT_POLL_MS);
  try {
    return await serveReviewEndpoint(config, { defaultServiceOptions: { hooks: [stepHooks] } });
  } finally {
    stopWatching();
  }
});
