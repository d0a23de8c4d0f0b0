/**
 * The plain runtime's worker: `node worker.ts --run <runId>` (plain-worker.ts). Environment:
 * DATABASE_URL, WORLD_URL, WORKER_NAME.
 */
import { runCli } from '@vendor-review/worker-io';
import { plainWorker } from './plain-worker.ts';

runCli('plain worker', () => plainWorker());
