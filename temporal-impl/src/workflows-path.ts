import { fileURLToPath } from 'node:url';

/**
 * The workflow entry, in a module of its own: the worker names it without importing the bundle's
 * cache (bundle.ts), which comes from the test bed.
 */
export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows.ts', import.meta.url));
