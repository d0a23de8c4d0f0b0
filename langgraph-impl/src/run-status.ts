import type { ReviewState } from '@vendor-review/pipeline';
import type pg from 'pg';
import { withFence, type Lease } from './lease.ts';
import { markRunFailed, setRunStatus, type RunsDb } from './runs.ts';

export type ExecuteOutcome = { status: 'completed' | 'failed'; rejected?: boolean; state: ReviewState | null };

/** How a run's status is written: under the lease, hardened. */
export type StatusWrite = (write: (db: RunsDb) => Promise<void>) => Promise<void>;

/**
 * Hardened, the run's status is written under the lease like its checkpoints. Found by the chaos
 * campaign: a worker frozen at the approval gate past its lease, woken after another worker had
 * finished the run, marked it completed itself (and exited 0), its status write being the one
 * write it made that checked nothing. Now it is refused, and the worker leaves fenced out.
 */
export function statusWriter(pool: pg.Pool, lease: Lease | null): StatusWrite {
  return (write) => (lease ? withFence(pool, lease, write) : write(pool));
}

/** The run ended in the dead letter (hardened): failed, with the failure the state holds. */
export async function recordDeadLetter(
  status: StatusWrite,
  runId: string,
  worker: string,
  final: ReviewState & { failure: NonNullable<ReviewState['failure']> },
  log: (line: string) => void,
): Promise<ExecuteOutcome> {
  await status((db) =>
    markRunFailed(db, runId, worker, `${final.failure.step}: ${final.failure.error}`, final.failure),
  );
  log(
    `failed into the dead letter at ${final.failure.step} after ${final.failure.attempts} attempt(s): ${final.failure.error}`,
  );
  return { status: 'failed', state: final };
}

/** naive has no dead letter: a step's error ends the run, recorded as it is. */
export async function recordStepError(
  pool: pg.Pool,
  runId: string,
  worker: string,
  err: unknown,
  state: () => Promise<ReviewState>,
  log: (line: string) => void,
): Promise<ExecuteOutcome> {
  const message = `${(err as Error).name}: ${(err as Error).message}`;
  await markRunFailed(pool, runId, worker, message);
  log(`failed: ${message}`);
  return { status: 'failed', state: await state() };
}

/** The run reached its end: completed, the review delivered or rejected. */
export async function recordCompleted(
  status: StatusWrite,
  runId: string,
  worker: string,
  final: ReviewState,
  log: (line: string) => void,
): Promise<ExecuteOutcome> {
  await status((db) => setRunStatus(db, runId, 'completed', worker));
  const rejected = final.approval?.approved === false;
  log(rejected ? 'completed: the review was rejected, nothing delivered' : 'completed');
  return { status: 'completed', rejected, state: final };
}
