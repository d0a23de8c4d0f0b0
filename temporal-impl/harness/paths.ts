import { fileURLToPath } from 'node:url';

/**
 * The harness's worker entry (`node --import tsx <HARNESS_WORKER_ENTRY>`, or bundled): src's
 * worker with the crash points laid over it (worker.ts here). Its environment is src/worker.ts's,
 * plus CRASH_PLAN.
 */
export const HARNESS_WORKER_ENTRY: string = fileURLToPath(new URL('./worker.ts', import.meta.url));
