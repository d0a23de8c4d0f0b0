import { fileURLToPath } from 'node:url';

/** The endpoint's entry as the harness starts it (crash points laid over src/endpoint.ts). */
export const WORKER_ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));
