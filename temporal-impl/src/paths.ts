import { fileURLToPath } from 'node:url';

/** The worker process's entry (`node --import tsx <WORKER_ENTRY>`, or bundled); see worker.ts for its env. */
export const WORKER_ENTRY: string = fileURLToPath(new URL('./worker.ts', import.meta.url));
