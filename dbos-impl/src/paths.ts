import { fileURLToPath } from 'node:url';

export const WORKER_ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));
