import { Command, INTERRUPT } from '@langchain/langgraph';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { ReviewState } from '@vendor-review/pipeline';
import type { Decision } from './approvals.ts';
import type { ReviewRunnable } from './review-runnable.ts';

/** What the layers around a run do when LangGraph is about to run it, and at the approval. */
export interface ThreadHooks {
  /** LangGraph is about to run the thread: the run is running. */
  running(): Promise<void>;
  /** The thread stopped at the approval interrupt, checkpointed. */
  waiting(): Promise<void>;
  /** The person's decision to resume the approval with, once there is one. */
  decision(): Promise<Decision>;
}

/**
 * One run on its LangGraph thread, to its end: `graph.invoke(input, config)` starts it from the
 * request, or with `null` goes on from the thread's last checkpoint; stopped at the approval
 * interrupt, it resumes with `Command({ resume: decision })`. Returns the state LangGraph ended with.
 *
 * The thread is read only where nothing else says where it stands (a resume, a decision to wait
 * for): each read loads the whole state and, hardened, its provenance. After an invoke its own
 * result says it: an interrupt (the approval; the graphs have no other), or the end.
 */
export async function runOnThread(
  graph: ReviewRunnable,
  config: RunnableConfig & Record<string, unknown>,
  input: ReviewState | null,
  hooks: ThreadHooks,
): Promise<ReviewState> {
  let next: ReviewState | Command | null = input;
  for (;;) {
    if (next === null) {
      const snapshot = await graph.getState(config);
      if (isAwaitingApproval(snapshot)) next = new Command({ resume: await hooks.decision() });
      else if (hasEnded(snapshot)) return snapshot.values as ReviewState;
    }
    await hooks.running();
    const result = (await graph.invoke(next, config)) as Record<string, unknown>;
    next = null;
    if (!stoppedAtInterrupt(result)) return result as unknown as ReviewState;
    await hooks.waiting();
  }
}

/**
 * The thread is finished only when LangGraph has no task left to prepare. `next` alone is not
 * enough: it omits tasks whose writes are already saved, so a step that finished (pending writes
 * stored) but whose checkpoint was lost, as async durability allows, shows `next: []` although
 * invoke(null) would go on. Reading that as "done" ends the run with nothing done (measured).
 */
function hasEnded(snapshot: { tasks: readonly unknown[] }): boolean {
  return snapshot.tasks.length === 0;
}

/** invoke() returns the state with the interrupts it stopped at; a run that reached its end has none. */
function stoppedAtInterrupt(result: Record<string, unknown>): boolean {
  const interrupts = result[INTERRUPT];
  return Array.isArray(interrupts) && interrupts.length > 0;
}

/**
 * The approval is the runs' only interrupt: AWAIT_APPROVAL's in a StateGraph, the entrypoint's own
 * in the Functional API (whose tasks never interrupt).
 */
export function isAwaitingApproval(snapshot: { tasks: readonly { interrupts: readonly unknown[] }[] }): boolean {
  return snapshot.tasks.some((t) => t.interrupts.length > 0);
}
