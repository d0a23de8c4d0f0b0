import { fileURLToPath } from 'node:url';

export const WORKER_ENTRY = fileURLToPath(new URL('../src/worker.ts', import.meta.url));
