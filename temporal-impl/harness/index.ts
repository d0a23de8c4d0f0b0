/**
 * The Temporal runtime's harness plugin: what the tools (compare, chaos, bench, lab) and the
 * conformance suites know of it. It imports the application in ../src, never the reverse.
 */
export { runtime } from './module.ts';
export { createTemporalAdapter, temporalUiLink, type TemporalAdapterOptions } from './adapter.ts';
export { TEMPORAL } from './info.ts';
export { toDurableRecord } from './durable-record.ts';
export {
  readHistory,
  fetchHistoryJson,
  summarizeHistory,
  type HistoryEventSummary,
  type HistoryJson,
} from './history.ts';
export { sdkDownloadedTemporal } from './sdk-fallback.ts';
export * from './server/index.ts';
