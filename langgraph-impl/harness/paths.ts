import { fileURLToPath } from 'node:url';

/** The worker process's entry (`node --import tsx <WORKER_ENTRY> --run <runId>`, or bundled). */
export const WORKER_ENTRY: string = fileURLToPath(new URL('../src/worker.ts', import.meta.url));
