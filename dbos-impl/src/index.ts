export { DBOS_INFO } from './harness/info.ts';
export { createDbosAdapter, type DbosAdapterOptions } from './harness/adapter.ts';
export { toDurableRecord } from './harness/durable-record.ts';
export { setupDatabase, DBOS_OUTBOX, DBOS_STEP_ERRORS } from './store.ts';
export { appNameFor, executorIdFor, hardenedVersionFor, APP_NAME, WORKFLOW_RELEASE } from './identity.ts';
export { OPTIONAL_TELEMETRY, WORKER_ENTRY } from './paths.ts';
