/** @vendor-review/temporal/bench: what `pnpm bench` needs beyond the runtime's public entry. */
export { cachedBenchBundle, BENCH_WORKFLOWS_PATH } from './bundle.ts';
export { startInProcessWorker, type InProcessWorker } from './in-process-worker.ts';
export { historyFigures, type HistoryFigures } from './history-figures.ts';
export type { BareInput } from './bare-workflow.ts';
export { recordingActivities, replayingActivities, type Recording } from './replay-activities.ts';
