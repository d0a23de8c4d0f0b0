/** What the harness and this package's tests call: the adapter, who Restate is, the worker's entry. */
export { RESTATE_INFO } from './info.ts';
export { createRestateAdapter, type RestateAdapterOptions } from './adapter.ts';
export type { RestateHandle } from './handle.ts';
export { toDurableRecord } from './durable-record.ts';
export { WORKER_ENTRY } from './paths.ts';
