import type { BaseCheckpointSaver, StateSnapshot } from '@langchain/langgraph';
import type { RunnableConfig } from '@langchain/core/runnables';
import { buildReviewEntrypoint, type EntrypointDeps } from './functional/review.ts';
import { compileGraph } from './graph.ts';
import type { RunRow } from './runs.ts';

/**
 * What a worker and a reader do with a run's LangGraph object, whichever API wrote the run: the
 * StateGraph of its granularity, or the Functional API's entrypoint (functional/review.ts). Both
 * are Pregel underneath, checkpointed the same way in the same tables; only what a checkpoint's
 * tasks are called differs.
 */
export interface ReviewRunnable {
  invoke(input: unknown, config: RunnableConfig & Record<string, unknown>): Promise<unknown>;
  getState(config: RunnableConfig): Promise<StateSnapshot>;
  getStateHistory(config: RunnableConfig): AsyncIterableIterator<StateSnapshot>;
}

export function reviewRunnable(
  run: Pick<RunRow, 'api' | 'granularity'>,
  deps: EntrypointDeps,
  checkpointer: BaseCheckpointSaver,
): ReviewRunnable {
  if (run.api === 'functional') return buildReviewEntrypoint(deps, checkpointer) as unknown as ReviewRunnable;
  return compileGraph(deps, checkpointer, run.granularity) as unknown as ReviewRunnable;
}
