/** What the harness and this package's tests call: the adapter, who DBOS is, the worker's entry and its bundle. */
export { DBOS_INFO } from './info.ts';
export { createDbosAdapter, type DbosAdapterOptions } from './adapter.ts';
export { toDurableRecord } from './durable-record.ts';
export { OPTIONAL_TELEMETRY, WORKER_ENTRY } from './paths.ts';
