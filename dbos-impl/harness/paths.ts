import { fileURLToPath } from 'node:url';

/** The worker the harness runs: src/'s worker with the crash points laid over it (worker.ts here). */
export const WORKER_ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url));

/**
 * What the worker's bundle leaves out: the SDK's optional telemetry, which it loads only when
 * asked to export traces or logs (and which is not installed). The rest of the SDK is bundled in.
 */
export const OPTIONAL_TELEMETRY = ['winston', 'winston-transport', '@opentelemetry/*'];
