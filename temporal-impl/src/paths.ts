import { fileURLToPath } from 'node:url';

/** The worker process's entry (`node --import tsx <WORKER_ENTRY>`, or bundled); see worker.ts for its env. */
export const WORKER_ENTRY: string = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** The workflow (workflows.ts), the entry the SDK bundles (bundle.ts, or a worker started without a bundle). */
export const WORKFLOWS_PATH: string = fileURLToPath(new URL('./workflows.ts', import.meta.url));

/**
 * What the worker's bundle leaves in node_modules: the SDK's workflow bundler and its toolchain,
 * which only a worker started without WORKFLOW_BUNDLE runs. The rest of the SDK is bundled in, so
 * a worker start does not resolve and read some 600 files.
 */
export const WORKFLOW_BUNDLER = ['webpack', 'minimizer-webpack-plugin', '@swc/core', 'swc-loader', 'source-map-loader'];
