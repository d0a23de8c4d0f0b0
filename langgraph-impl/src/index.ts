export { WORKER_ENTRY } from './paths.ts';
export { createLangGraphAdapter, type LangGraphAdapterOptions } from './harness/adapter.ts';
export { LANGGRAPH } from './harness/info.ts';
export { LANGGRAPH_FUNCTIONAL } from './functional/harness/info.ts';
export { createFunctionalAdapter } from './functional/harness/adapter.ts';
export { toDurableRecord } from './harness/durable-record.ts';
export { LG_OUTBOX } from './outbox.ts';
export { expireLeasesOf, leaseOwnerOf } from './lease.ts';

export { setupDatabase } from './setup.ts';
export { createRun, type CreateRunOptions, type StoredStatus } from './runs.ts';
export { approveRun } from './approvals.ts';
export {
  getRun,
  readDurableRecord,
  type RunDetails,
  type DurableRecord,
  type DurableCheckpoint,
  type DurablePendingWrite,
} from './harness/inspect.ts';
export { runRetention, parseWindow } from './retention.ts';
export { EXIT } from './exit-codes.ts';
export { HARDENED_DURABILITY, NAIVE_DURABILITY, defaultDurability } from './durability.ts';
export { SERIALIZER_VERSION, type CheckpointerKind } from './checkpointer.ts';
export { TABLES } from './sql.ts';
export { buildGraph, compileGraph } from './graph.ts';
export { writeV1Checkpoint } from './harness/v1-checkpoint.ts';
