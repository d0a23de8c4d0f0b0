/**
 * The worker a team deploys: `node worker.ts --run <runId>` (run-worker.ts). Environment:
 * DATABASE_URL, WORLD_URL, WORKER_NAME, DBOS_APP_NAME, DBOS_EXECUTOR_ID and DBOS_APP_VERSION (set
 * by whoever starts the worker: its supervisor, the harness's adapter), TRACE_STEPS (`pnpm lab
 * worker`: a line per step that runs and per call; a journaled step prints nothing, it does not run).
 */
import { runCli } from '@vendor-review/worker-io';
import { runWorker } from './run-worker.ts';

runCli('dbos worker', () => runWorker());
