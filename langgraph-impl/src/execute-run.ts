import { Command, INTERRUPT, RunControl, isGraphDrained } from '@langchain/langgraph';
import {
  STATE_SCHEMA_VERSION,
  crashpoint,
  initialState,
  isPermanent,
  isTransient,
  stateVersionOf,
  type Ports,
  type ReviewRequest,
  type ReviewState,
} from '@vendor-review/pipeline';
import { isConnectionLoss, waitForDatabase } from '@vendor-review/worker-io';
import type pg from 'pg';
import { findApproval, markApprovalConsumed, waitForApproval } from './approvals.ts';
import { createCheckpointer, isRuntimeChannel } from './checkpointer.ts';
import { DrainedError, type WorkerDrain } from './drain.ts';
import { CheckpointUnreadableError, NothingToResumeError, RunNotFoundError } from './errors.ts';
import {
  FencedOutError,
  claimLease,
  fencedPool,
  keepLeaseAlive,
  leaseOwner,
  releaseLease,
  withFence,
  type Lease,
} from './lease.ts';
import type { DomainSteps } from './nodes.ts';
import { LG_OUTBOX, outboxWriter } from './outbox.ts';
import { TaskCommits } from './functional/task-commits.ts';
import { reviewRunnable } from './review-runnable.ts';
import { ownErrorCounter } from './retry.ts';
import { LG_OUTBOX_SCOPE, SELECT_LEASE } from './sql.ts';
import { loadRun, markRunFailed, markRunStarted, setRunStatus, type RunRow, type RunsDb } from './runs.ts';

export interface ExecuteOptions {
  pool: pg.Pool;
  runId: string;
  /** Label for the ledger and the runs table ("A", "B"…). */
  worker: string;
  ports: Ports;
  leaseTtlMs: number;
  /** Deliver this run's outbox rows before exiting (hardened). */
  drainOutbox: boolean;
  /** Start over from the request when the run has nothing durable to resume from. */
  restart?: boolean;
  approvalPollMs?: number;
  steps?: DomainSteps;
  log?: (line: string) => void;
  /** The worker's SIGTERM: a hardened run drains at the next superstep (drain.ts); naive ignores it. */
  drain?: WorkerDrain;
}

export type ExecuteOutcome = { status: 'completed' | 'failed'; rejected?: boolean; state: ReviewState | null };

function isUnreadable(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown })?.code;
  return code === 'unsupported-state-version' || code === 'unsupported-serializer';
}

/** How long a hardened worker waits for a database that went away before it gives up the run. */
const DATABASE_WAIT_MS = Number(process.env.DATABASE_WAIT_MS ?? 60_000);

/** The database went away under the run: a connection error, or the lease lapsing because it could not be renewed. */
function isDatabaseLoss(err: unknown): boolean {
  return (err instanceof FencedOutError && err.unreachable) || isConnectionLoss(err);
}

/**
 * Executes or resumes one run until it completes or fails: claims the lease (hardened), loads the
 * latest checkpoint, starts from the request, continues with invoke(null), or resumes the approval
 * interrupt with Command({ resume }) once a decision is recorded, waiting for one if need be.
 *
 * Hardened: the database going away mid-run (a restart, a failover) does not end the run. The
 * write that met the outage failed; the worker waits until the database answers and, if nobody
 * else has taken the lease meanwhile, resumes from the last checkpoint with a new fencing token,
 * so the step in flight runs again (its effects carry their keys) and nothing it wrote under the
 * old token can land. Naive has no such loop: the worker dies and only a restart resumes it.
 */
export async function executeRun(o: ExecuteOptions): Promise<ExecuteOutcome> {
  const log = o.log ?? (() => {});
  const held: { lease: Lease | null } = { lease: null };
  for (let resumes = 1; ; resumes++) {
    try {
      return await executeOnce(o, log, held);
    } catch (err) {
      if (!isDatabaseLoss(err)) throw err;
      const since = Date.now();
      // Past its lease's end, the run may be another worker's: waiting longer would only keep a
      // worker alive that must not act, so it gives the run up the moment the lease lapses.
      const lease = held.lease;
      const deadline = lease
        ? Math.min(since + DATABASE_WAIT_MS, lease.renewedAt + lease.ttlMs)
        : since + DATABASE_WAIT_MS;
      const run = await waitForDatabase(o.pool, deadline)
        .then(() => loadRun(o.pool, o.runId))
        .catch(() => null);
      if (!run && lease && Date.now() > lease.renewedAt + lease.ttlMs)
        throw new FencedOutError(
          lease,
          `the database was unreachable until the lease ran out ${Date.now() - lease.renewedAt} ms after its last renewal (TTL ${lease.ttlMs} ms), so another worker may own the run; stopping before anything else is done`,
          true,
        );
      if (run?.variant !== 'hardened') throw err;
      const now = (await o.pool.query(SELECT_LEASE, [run.threadId])).rows[0];
      const holder = now?.owner as string | undefined;
      if (holder !== undefined && holder !== leaseOwner(o.worker)) throw takenOver(o, run, held.lease, now, err);
      log(
        `the database went away (${(err as Error).message}); it answers again after ${Date.now() - since} ms: resuming from the last checkpoint (resume ${resumes})`,
      );
    }
  }
}

/**
 * The connection died while this worker held the run, and another worker holds it now: this one was
 * fenced out, and says so (exit fencedOut) instead of dying of the connection error (exit 1, as a
 * crash). Found by the chaos campaign: a worker frozen (SIGSTOP) inside the outbox's send, whose
 * transaction PostgreSQL ended after idle_in_transaction_session_timeout while a second worker took
 * the run over and delivered it, woke up and left with "unexpected error: Connection terminated".
 */
function takenOver(
  o: ExecuteOptions,
  run: RunRow,
  mine: Lease | null,
  now: { owner: string; fencing_token: string | number },
  cause: unknown,
): FencedOutError {
  const lease = mine ?? {
    threadId: run.threadId,
    owner: leaseOwner(o.worker),
    token: 0,
    ttlMs: o.leaseTtlMs,
    renewedAt: 0,
  };
  return new FencedOutError(
    lease,
    `${now.owner} claimed it since (token ${now.fencing_token}) while this worker's database connection was gone (${(cause as Error).message})`,
  );
}

async function executeOnce(
  o: ExecuteOptions,
  log: (line: string) => void,
  held: { lease: Lease | null },
): Promise<ExecuteOutcome> {
  const run = await loadRun(o.pool, o.runId);
  if (!run) throw new RunNotFoundError(o.runId);
  const hardened = run.variant === 'hardened';

  const lease: Lease | null = hardened
    ? await claimLease(o.pool, run.threadId, leaseOwner(o.worker), o.leaseTtlMs)
    : null;
  held.lease = lease;
  const controller = new AbortController();
  let lostLease: FencedOutError | null = null;
  const keeper = lease
    ? keepLeaseAlive(o.pool, lease, (err) => {
        lostLease = err;
        controller.abort(err);
      })
    : null;
  if (lease) log(`claimed the lease on thread ${run.threadId} (fencing token ${lease.token})`);
  // Asked to stop, LangGraph finishes the node in flight and stops at the next superstep, its
  // checkpoint saved; a run waiting for its approval stops waiting. The lease is released below.
  const drain = hardened ? o.drain : undefined;
  const control = drain ? new RunControl() : null;
  const release = drain?.hold();
  const onDrain = () => {
    log('asked to stop: draining at the next step boundary');
    control?.requestDrain('SIGTERM');
  };
  if (drain?.signal.aborted) onDrain();
  else drain?.signal.addEventListener('abort', onDrain, { once: true });

  try {
    return await drive(o, run, lease, controller.signal, log, control ? { control, signal: drain!.signal } : null);
  } catch (err) {
    // A lost lease explains whatever the aborted graph threw on its way out.
    throw lostLease ?? (isGraphDrained(err) ? new DrainedError(err.reason) : err);
  } finally {
    release?.();
    drain?.signal.removeEventListener('abort', onDrain);
    keeper?.stop();
    if (lease && !lostLease) await releaseLease(o.pool, lease).catch(() => {});
  }
}

async function drive(
  o: ExecuteOptions,
  run: RunRow,
  lease: Lease | null,
  signal: AbortSignal,
  log: (line: string) => void,
  drain: { control: RunControl; signal: AbortSignal } | null,
): Promise<ExecuteOutcome> {
  const writer = lease ? fencedPool(o.pool, lease) : o.pool;
  // Hardened, the run's status is written under the lease like its checkpoints. Found by the chaos
  // campaign: a worker frozen at the approval gate past its lease, woken after another worker had
  // finished the run, marked it completed itself (and exited 0), its status write being the one
  // write it made that checked nothing. Now it is refused, and the worker leaves fenced out.
  const status = (write: (db: RunsDb) => Promise<void>): Promise<void> =>
    lease ? withFence(o.pool, lease, write) : write(o.pool);
  const checkpointer = createCheckpointer(run.checkpointer, writer, {
    variant: run.variant,
    writer: { worker: o.worker, ...(lease ? { fencingToken: lease.token } : {}) },
    persistMigrations: true,
  });
  // Hardened entrypoints act on a task's result only once it is committed (functional/task-commits.ts).
  const commits = run.api === 'functional' && run.variant === 'hardened' ? new TaskCommits() : null;
  const graph = reviewRunnable(
    run,
    {
      variant: run.variant,
      ports: o.ports,
      worker: o.worker,
      ...(o.steps ? { steps: o.steps } : {}),
      ...(commits ? { commits } : {}),
      // An entrypoint is one superstep: LangGraph's drain would wait for its interrupt, so it stops itself at a task boundary.
      ...(commits && drain ? { drainAt: drain.signal } : {}),
      ...(run.variant === 'hardened'
        ? {
            outbox: outboxWriter(o.pool, lease),
            ownErrors: ownErrorCounter(o.pool),
            onDeadLetter: (runId, failure) =>
              status((db) => markRunFailed(db, runId, o.worker, `${failure.step}: ${failure.error}`, failure)),
          }
        : {}),
    },
    commits ? commits.watch(checkpointer) : checkpointer,
  );
  const config = {
    configurable: { thread_id: run.threadId },
    durability: run.durability,
    signal,
    recursionLimit: 500,
    ...(drain ? { control: drain.control } : {}),
  };

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

  let input: unknown = null;
  if (!tuple && (run.status === 'completed' || run.status === 'failed')) {
    log(`run already ${run.status}; its checkpoints are gone (retention or memory), nothing to do`);
    return { status: run.status, state: null };
  }
  if (!tuple) {
    const neverDurable = diedBeforeFirstCheckpoint(run);
    if (run.status !== 'pending' && !o.restart && !neverDurable) throw new NothingToResumeError(run);
    log(
      run.status === 'pending'
        ? 'starting from the request'
        : neverDurable
          ? 'starting from the request: the worker before died before the first checkpoint, which holds nothing but the request'
          : 'restarting from the request (--restart): nothing durable to resume from',
    );
    input = initialState(run.runId, run.request as ReviewRequest);
  } else if (run.status === 'completed' || run.status === 'failed') {
    log(`run already ${run.status}`);
  } else {
    log(
      `resuming from checkpoint ${tuple.config.configurable?.checkpoint_id} (step ${(tuple.metadata as { step?: number })?.step})`,
    );
  }

  // Read the thread only where nothing else says where it stands (a resume, a decision to wait
  // for): each read loads the whole state and, hardened, its provenance. After an invoke its own
  // result says it: an interrupt (the approval; the graphs have no other), or the end.
  let final: ReviewState | null = null;
  while (final === null) {
    if (input === null) {
      const snapshot = await graph.getState(config);
      if (isAwaitingApproval(snapshot))
        input = await decisionFor(o, run, drain ? AbortSignal.any([signal, drain.signal]) : signal, log, status);
      else if (hasEnded(snapshot)) {
        final = snapshot.values as ReviewState;
        break;
      }
    }
    await status((db) => markRunStarted(db, run.runId, o.worker));
    let result: Record<string, unknown>;
    try {
      result = (await graph.invoke(input as never, config)) as Record<string, unknown>;
    } catch (err) {
      // naive has no dead letter: a step's error ends the run, recorded as it is.
      if (run.variant === 'naive' && (isTransient(err) || isPermanent(err))) {
        const message = `${(err as Error).name}: ${(err as Error).message}`;
        await markRunFailed(o.pool, run.runId, o.worker, message);
        log(`failed: ${message}`);
        return { status: 'failed', state: (await graph.getState(config)).values as ReviewState };
      }
      throw err;
    }
    input = null;
    if (!stoppedAtInterrupt(result)) {
      final = result as unknown as ReviewState;
      break;
    }
    await status((db) => setRunStatus(db, run.runId, 'awaiting-approval', o.worker));
    log('waiting for approval (the interrupt is checkpointed)');
    await crashpoint('awaiting-approval');
  }

  if (final.failure) {
    await status((db) =>
      markRunFailed(db, run.runId, o.worker, `${final.failure!.step}: ${final.failure!.error}`, final.failure),
    );
    log(
      `failed into the dead letter at ${final.failure.step} after ${final.failure.attempts} attempt(s): ${final.failure.error}`,
    );
    return { status: 'failed', state: final };
  }
  if (run.variant === 'hardened' && o.drainOutbox) {
    const drained = await LG_OUTBOX.drain({
      pool: o.pool,
      ports: o.ports,
      worker: o.worker,
      scope: LG_OUTBOX_SCOPE,
      runId: run.runId,
      untilEmpty: true,
      signal,
      log,
    });
    if (drained.sent) log(`delivered ${drained.sent} outbox mail(s)`);
  }
  await status((db) => setRunStatus(db, run.runId, 'completed', o.worker));
  const rejected = final.approval?.approved === false;
  log(rejected ? 'completed: the review was rejected, nothing delivered' : 'completed');
  return { status: 'completed', rejected, state: final };
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

async function decisionFor(
  o: ExecuteOptions,
  run: RunRow,
  signal: AbortSignal,
  log: (line: string) => void,
  status: (write: (db: RunsDb) => Promise<void>) => Promise<void>,
): Promise<Command> {
  const recorded = await findApproval(o.pool, run.runId);
  if (!recorded) await status((db) => setRunStatus(db, run.runId, 'awaiting-approval', o.worker));
  const decision = recorded ?? (await waitForApproval(o.pool, run.runId, { pollMs: o.approvalPollMs ?? 250, signal }));
  if (!decision) throw signal.reason ?? new Error('stopped while waiting for approval');
  log(`approval found: ${decision.approved ? 'approved' : 'rejected'} by ${decision.by}`);
  await markApprovalConsumed(o.pool, run.runId, o.worker);
  return new Command({ resume: decision });
}
