import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  STATE_SCHEMA_VERSION,
  initialState,
  stateVersionOf,
  type ReviewRequest,
  type ReviewState,
} from '@vendor-review/pipeline';
import { isRuntimeChannel } from './checkpointer.ts';
import { CheckpointUnreadableError, NothingToResumeError } from './errors.ts';
import type { RunRow } from './runs.ts';

/**
 * Where a run starts from: `input` (the request) for a run with nothing durable yet, `null` to go on
 * from its last checkpoint, or `ended` for a run that already ended and whose checkpoints are gone.
 */
export type StartingPoint = { input: ReviewState | null } | { ended: 'completed' | 'failed' };

function isUnreadable(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown })?.code;
  return code === 'unsupported-state-version' || code === 'unsupported-serializer';
}

/**
 * Reads the thread's latest checkpoint and decides where the run starts, refusing in plain words
 * what cannot be resumed: a checkpoint this code does not read (CheckpointUnreadableError), or a run
 * with nothing durable left (NothingToResumeError; `restart` starts it over from its request).
 */
export async function startingPoint(
  run: RunRow,
  checkpointer: BaseCheckpointSaver,
  config: RunnableConfig,
  restart: boolean,
  log: (line: string) => void,
): Promise<StartingPoint> {
  let tuple;
  try {
    tuple = await checkpointer.getTuple(config);
  } catch (err) {
    if (isUnreadable(err)) throw new CheckpointUnreadableError(run.runId, err, `${err.message}.`);
    throw err;
  }
  const values = tuple?.checkpoint.channel_values ?? {};
  const hasState = Object.keys(values).some((k) => !isRuntimeChannel(k));
  if (hasState && stateVersionOf(values) !== STATE_SCHEMA_VERSION) {
    // Only naive gets here: the hardened saver has already migrated (or refused) older state.
    throw new CheckpointUnreadableError(
      run.runId,
      new Error('state version mismatch'),
      `its latest checkpoint holds review state of schema version ${JSON.stringify(stateVersionOf(values))}, this worker reads version ${STATE_SCHEMA_VERSION}, and the ${run.variant} variant has no migrations, so it refuses the state rather than run on a half-read one.`,
    );
  }

  if (!tuple && (run.status === 'completed' || run.status === 'failed')) {
    log(`run already ${run.status}; its checkpoints are gone (retention or memory), nothing to do`);
    return { ended: run.status };
  }
  if (!tuple) {
    const neverDurable = diedBeforeFirstCheckpoint(run);
    if (run.status !== 'pending' && !restart && !neverDurable) throw new NothingToResumeError(run);
    log(
      run.status === 'pending'
        ? 'starting from the request'
        : neverDurable
          ? 'starting from the request: the worker before died before the first checkpoint, which holds nothing but the request'
          : 'restarting from the request (--restart): nothing durable to resume from',
    );
    return { input: initialState(run.runId, run.request as ReviewRequest) };
  }
  if (run.status === 'completed' || run.status === 'failed') log(`run already ${run.status}`);
  else
    log(
      `resuming from checkpoint ${tuple.config.configurable?.checkpoint_id} (step ${(tuple.metadata as { step?: number })?.step})`,
    );
  return { input: null };
}

/**
 * A hardened run marked running without a single checkpoint: its worker died between taking the run
 * and LangGraph's first write (found by the chaos campaign: a kill a few hundred ms after a worker
 * started left a run every later worker refused as "nothing to resume"). Under `sync` durability
 * the first checkpoint holds the request and nothing else, and the first step's own checkpoint is
 * committed before the second step starts, so starting from the request is exactly resuming from
 * that first checkpoint: nothing more runs again than a resume would run. Effects carry keys
 * derived from the thread, which has not changed. A purged run or a MemorySaver run is another
 * matter (its progress is gone, not absent) and is still refused.
 */
function diedBeforeFirstCheckpoint(run: RunRow): boolean {
  return (
    run.variant === 'hardened' &&
    run.checkpointer === 'postgres' &&
    run.durability === 'sync' &&
    run.purgedAt === null &&
    run.status === 'running'
  );
}
