import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import type { ChainValues } from '@langchain/core/utils/types';
import type { Checkpoint } from '@langchain/langgraph-checkpoint';
import { commitWritten, MID_COMMIT_STEP, startCalled, stepBegins, watchForWait } from '@vendor-review/instrument';
import type pg from 'pg';
import { ReviewSaver } from '../src/checkpointer.ts';
import { ENTRYPOINT_NAME } from '../src/functional/review.ts';
import { SELECT_RUNS_AWAITING_APPROVAL } from './sql.ts';

/**
 * Where the crash points that are not HTTP calls are reached in the LangGraph worker, each from an
 * extension point LangGraph offers: a callback handler on every invoke (a step begins), a saver
 * subclass (a checkpoint is written, not committed), and the status the worker records (a run waits).
 */

/**
 * LangGraph starts a run for every node of a StateGraph and every task of an entrypoint, named as
 * the node and tagged with its superstep (`graph:step:N`); the graph itself, LangGraph's hidden
 * `__start__` node and the runnables inside a node are runs too, told apart here. A task whose
 * result the checkpoint already holds is not run again, and starts no run.
 */
export class StepSites extends BaseCallbackHandler {
  name = 'crash-sites';
  // LangChain runs handlers in the background unless told to wait: a kill must land before the node's code.
  override awaitHandlers = true;
  /** The threads this worker has invoked a graph on: its runs, whether named on its command line or claimed. */
  readonly threads = new Set<string>();

  // The callback manager passes (…, parentRunId, tags, metadata, runType, runName), not the order the
  // declaration names; LangGraph's own StreamMessagesHandler reads it the same way.
  override async handleChainStart(
    _chain: Serialized,
    _inputs: ChainValues,
    _runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): Promise<void> {
    if (typeof metadata?.thread_id === 'string') this.threads.add(metadata.thread_id);
    // The graph's (or entrypoint's) own run, with no parent: invoke() has begun, nothing is checkpointed yet.
    if (!parentRunId && typeof metadata?.thread_id === 'string') {
      await startCalled(`thread=${metadata.thread_id}`);
      return;
    }
    const node = metadata?.langgraph_node;
    if (!runName || runName !== node || !tags?.some((t) => t.startsWith('graph:step:'))) return;
    // The entrypoint is the Functional API's whole run, not a step of it.
    if (tags.includes('langsmith:hidden') || runName === ENTRYPOINT_NAME) return;
    await stepBegins(runName);
  }
}

/** ReviewSaver, reaching `mid-commit` inside the checkpoint's transaction, from the first one that keeps EXTRACT's result. */
export class CommitSiteSaver extends ReviewSaver {
  protected override async written(_client: pg.PoolClient, checkpoint: Checkpoint): Promise<void> {
    if (MID_COMMIT_STEP in checkpoint.versions_seen) await commitWritten(`checkpoint=${checkpoint.id}`);
  }
}

/** `awaiting-approval`: a run of `threads` whose status, as the worker records it, is waiting for the approval. */
export function watchRunsWaiting(pool: pg.Pool, threads: ReadonlySet<string>): () => void {
  return watchForWait(async () => {
    if (threads.size === 0) return [];
    const { rows } = await pool.query<{ run_id: string }>(SELECT_RUNS_AWAITING_APPROVAL, [[...threads]]);
    return rows.map((r) => r.run_id);
  });
}
