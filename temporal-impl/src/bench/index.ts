/** @vendor-review/temporal/bench: Temporal's bench profile and the parts it is made of (used by `pnpm bench` through the runtime module). */
export { profile, TEMPORAL_LIMITS } from './profile.ts';
export { cachedBenchBundle, BENCH_WORKFLOWS_PATH } from './bundle.ts';
export { startInProcessWorker, type InProcessWorker } from './in-process-worker.ts';
export { historyFigures, type HistoryFigures } from './history-figures.ts';
export type { BareInput } from './bare-workflow.ts';
export { recordingActivities, replayingActivities, type Recording } from './replay-activities.ts';
