import type { RunRow } from './runs.ts';

/**
 * Errors a worker reports to a person. Each says which run, why, and what to do, in words;
 * LangGraph's own error text (about thread ids, checkpoints and channels) never reaches the user.
 */
export class RunNotFoundError extends Error {
  override readonly name = 'RunNotFoundError';
  constructor(readonly runId: string) {
    super(`run ${runId} does not exist. Create it first (createRun), or check the run id.`);
  }
}

export class NothingToResumeError extends Error {
  override readonly name = 'NothingToResumeError';
  constructor(readonly run: RunRow) {
    super(NothingToResumeError.explain(run));
  }

  static explain(run: RunRow): string {
    const why =
      run.purgedAt !== null
        ? `its checkpoints were deleted by retention on ${run.purgedAt.toISOString()}`
        : run.checkpointer === 'memory'
          ? 'it kept its checkpoints in the memory of the worker process that ran it (MemorySaver), and that process is gone: a checkpointer in memory is not durable storage'
          : run.durability === 'exit'
            ? `it runs with durability "exit", which writes a checkpoint only when the graph stops, and the worker died before that`
            : 'no checkpoint of it exists in the database (it may have been deleted by hand)';
    return (
      `Run ${run.runId} cannot be resumed: it was started (status "${run.status}", thread ${run.threadId}) but ${why}. ` +
      `Nothing of its progress survives. To run the review again from its original request, start a worker with --restart ` +
      `(every step runs again, including model calls and notes already sent), or create a new run.`
    );
  }
}

export class CheckpointUnreadableError extends Error {
  override readonly name = 'CheckpointUnreadableError';
  constructor(
    readonly runId: string,
    override readonly cause: Error,
    detail: string,
  ) {
    super(
      `Run ${runId} cannot be resumed by this version of the worker: ${detail} Deploy a worker that can read it, or restore the old worker to finish the run.`,
    );
  }
}
