/** @vendor-review/langgraph/bench: LangGraph's bench and the parts it is made of (used by `pnpm bench` through the runtime module). */
export { bench } from './runtime-bench.ts';
export { buildBareGraph, bareSaver, runBareGraph, type BareSaver } from './bare-graph.ts';
export { createApprovedRun, runReviewInProcess, type RunSpec } from './in-process.ts';
export { threadStorage, type ThreadStorage } from './storage.ts';
export { recordingSteps, replayingSteps, type Recording } from './replay-steps.ts';
export { runGraphDirect } from './replay-graph.ts';
