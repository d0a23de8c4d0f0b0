import { fileURLToPath } from 'node:url';

/** Absolute path of the worker entry, for `node --import tsx <WORKER_ENTRY> --run <runId>`. */
export const WORKER_ENTRY: string = fileURLToPath(new URL('./worker.ts', import.meta.url));
export const RETENTION_ENTRY: string = fileURLToPath(new URL('./retention-cli.ts', import.meta.url));

export { setupDatabase } from './setup.ts';
export { createRun, type CreateRunOptions, type RunStatus } from './runs.ts';
export { approveRun } from './approvals.ts';
export {
  getRun,
  readDurableRecord,
  type RunView,
  type DurableRecord,
  type DurableCheckpoint,
  type DurablePendingWrite,
} from './inspect.ts';
export { runRetention, parseWindow } from './retention.ts';
export { EXIT } from './exit-codes.ts';
export { HARDENED_DURABILITY, NAIVE_DURABILITY, defaultDurability, type Durability } from './durability.ts';
export { SERIALIZER_VERSION, type Variant, type CheckpointerKind } from './checkpointer.ts';
export { TABLES } from './sql.ts';
export { buildGraph, compileGraph } from './graph.ts';
export { writeV1Checkpoint } from './v1-checkpoint.ts';
