/** What the harness and this package's tests call: the adapters, who each API is, inspection, the v1 rewrite. */
export { WORKER_ENTRY } from './paths.ts';
export { createLangGraphAdapter, type LangGraphAdapterOptions } from './adapter.ts';
export { LANGGRAPH } from './info.ts';
export { LANGGRAPH_FUNCTIONAL } from './functional/info.ts';
export { createFunctionalAdapter } from './functional/adapter.ts';
export { toDurableRecord } from './durable-record.ts';
export {
  getRun,
  readCheckpointRows,
  type RunDetails,
  type CheckpointRows,
  type DurableCheckpoint,
  type DurablePendingWrite,
} from './inspect.ts';
export { writeV1Checkpoint } from './v1-checkpoint.ts';
