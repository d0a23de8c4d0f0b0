/** @vendor-review/langgraph/bench: what `pnpm bench` needs beyond the runtime's public entry. */
export { buildBareGraph, bareSaver, runBareGraph, type BareSaver } from './bare-graph.ts';
export { createApprovedRun, runReviewInProcess, type RunSpec } from './in-process.ts';
export { threadStorage, type ThreadStorage } from './storage.ts';
export { recordingSteps, replayingSteps, type Recording } from './replay-steps.ts';
export { runGraphDirect } from './replay-graph.ts';
export { createPool } from '../pool.ts';
export { EXIT } from '../exit-codes.ts';
