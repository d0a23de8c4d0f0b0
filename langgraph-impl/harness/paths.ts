import { fileURLToPath } from 'node:url';

/** The harness's worker process entry, crash points laid over src/'s worker (`node --import tsx <WORKER_ENTRY> --run <runId>`, or bundled). */
export const WORKER_ENTRY: string = fileURLToPath(new URL('./worker.ts', import.meta.url));
