/**
 * The worker a team deploys: `node worker.ts`. It launches DBOS (recovering what this executor id
 * and version left PENDING) and runs what clients enqueue on the `review` queue (client.ts) until
 * it is stopped. Environment: DATABASE_URL, WORLD_URL, WORKER_NAME, DBOS_EXECUTOR_ID, DBOS_APP_NAME,
 * DBOS_APP_VERSION (set by whoever starts the worker: its supervisor), TRACE_STEPS (a line per step
 * that runs and per call; a journaled step prints nothing, it does not run).
 */
import { parseCli, runCli } from '@vendor-review/worker-io';
import { REVIEW_QUEUE } from './client.ts';
import { launchReviewWorker, readLaunchConfig } from './launch.ts';

const USAGE = `usage: dbos worker
  launches DBOS and runs the reviews clients enqueue on the ${REVIEW_QUEUE} queue until stopped
  (DATABASE_URL, WORLD_URL, WORKER_NAME, DBOS_EXECUTOR_ID, DBOS_APP_NAME, DBOS_APP_VERSION)`;

runCli('dbos worker', async () => {
  parseCli({ usage: USAGE, options: {} });
  await launchReviewWorker(readLaunchConfig(), { queue: REVIEW_QUEUE, drainOnSigterm: true });
  return new Promise<number>(() => {}); // runs until a signal ends the process
});
