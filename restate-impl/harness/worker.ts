/**
 * The Restate endpoint as the harness starts it for a cell: src/endpoint.ts driven for one run
 * (endpoint-run.ts), with crash points laid over it from outside. The calls are watched at the
 * process's HTTP client, the steps at the SDK's `run` interceptor, and the wait for a person in
 * the server's own record of the workflow.
 */
import { installCrashPoints } from '@vendor-review/instrument';
import { runCli } from '@vendor-review/worker-io';
import { stepHooks, watchRunWait } from './crash-sites.ts';
import { readEndpointRunConfig, serveRun } from './endpoint-run.ts';

installCrashPoints();

/** A read of the server's SQL a tick, only while the wait is armed; the approval comes seconds later. */
const WAIT_POLL_MS = 100;

runCli('restate worker', async () => {
  const config = readEndpointRunConfig();
  const stopWatching = watchRunWait(config.urls, config.runId, WAIT_POLL_MS);
  try {
    return await serveRun(config, { defaultServiceOptions: { hooks: [stepHooks] } });
  } finally {
    stopWatching();
  }
});
