import type { Callbacks } from '@langchain/core/callbacks/manager';
import { isPermanent, isTransient, type Ports, type ReviewState } from '@vendor-review/pipeline';
import type pg from 'pg';
import { takeDecision } from './approvals.ts';
import { createCheckpointer, type SaverFactory } from './checkpointer.ts';
import { outlastDatabaseLoss } from './database-loss.ts';
import type { WorkerDrain } from './drain.ts';
import { RunNotFoundError } from './errors.ts';
import { TaskCommits } from './functional/task-commits.ts';
import { fencedPool, type Lease } from './lease.ts';
import type { DomainSteps } from './nodes.ts';
import { deliverRunOutbox, outboxWriter } from './outbox.ts';
import { reviewRunnable } from './review-runnable.ts';
import { ownErrorCounter } from './retry.ts';
import { holdRun, type HeldRun } from './run-lease.ts';
import { recordCompleted, recordDeadLetter, recordStepError, statusWriter, type ExecuteOutcome } from './run-status.ts';
import { runOnThread } from './run-thread.ts';
import { loadRun, markRunFailed, markRunStarted, setRunStatus, type RunRow } from './runs.ts';
import { startingPoint } from './starting-point.ts';

export type { ExecuteOutcome } from './run-status.ts';

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
  /** LangGraph callbacks for the run's invoke (its `callbacks` config): a tracer, a monitor. */
  callbacks?: Callbacks;
  /** Makes the run's PostgreSQL saver (compile({ checkpointer })); default: ReviewSaver. */
  newSaver?: SaverFactory;
}

/**
 * Executes or resumes one run until it completes or fails. The run itself is run-thread.ts
 * (invoke, and Command({ resume }) at the approval); around it, each in its own file: the lease and
 * the drain (run-lease.ts), where it starts from and what is refused (starting-point.ts), the
 * decision (approvals.ts), the status (run-status.ts), the outbox (outbox.ts), and riding out a
 * database that went away (database-loss.ts).
 */
export async function executeRun(o: ExecuteOptions): Promise<ExecuteOutcome> {
  const log = o.log ?? (() => {});
  const held: { lease: Lease | null } = { lease: null };
  for (let resumes = 1; ; resumes++) {
    try {
      const run = await loadRun(o.pool, o.runId);
      if (!run) throw new RunNotFoundError(o.runId);
      return await holdRun(o, run, held, log, (h) => drive(o, run, h, log));
    } catch (err) {
      await outlastDatabaseLoss(o, held.lease, err, resumes, log);
    }
  }
}

/** One attempt at the run, held: its graph on its saver, where it starts, the run on its thread, how it ended. */
async function drive(o: ExecuteOptions, run: RunRow, h: HeldRun, log: (line: string) => void): Promise<ExecuteOutcome> {
  const { lease, signal, drain } = h;
  const status = statusWriter(o.pool, lease);
  const checkpointer = createCheckpointer(
    run.checkpointer,
    lease ? fencedPool(o.pool, lease) : o.pool,
    {
      variant: run.variant,
      writer: { worker: o.worker, ...(lease ? { fencingToken: lease.token } : {}) },
      persistMigrations: true,
    },
    o.newSaver,
  );
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
    ...(o.callbacks ? { callbacks: o.callbacks } : {}),
  };

  const start = await startingPoint(run, checkpointer, config, o.restart ?? false, log);
  if ('ended' in start) return { status: start.ended, state: null };
  const awaiting = () => status((db) => setRunStatus(db, run.runId, 'awaiting-approval', o.worker));
  let final: ReviewState;
  try {
    final = await runOnThread(graph, config, start.input, {
      running: () => status((db) => markRunStarted(db, run.runId, o.worker)),
      waiting: async () => {
        await awaiting();
        log('waiting for approval (the interrupt is checkpointed)');
      },
      decision: () =>
        takeDecision(o.pool, run.runId, o.worker, {
          pollMs: o.approvalPollMs ?? 250,
          signal: drain ? AbortSignal.any([signal, drain.signal]) : signal,
          waiting: awaiting,
          log,
        }),
    });
  } catch (err) {
    // naive has no dead letter: a step's error ends the run.
    if (run.variant !== 'naive' || !(isTransient(err) || isPermanent(err))) throw err;
    const state = async () => (await graph.getState(config)).values as ReviewState;
    return recordStepError(o.pool, run.runId, o.worker, err, state, log);
  }

  if (final.failure) return recordDeadLetter(status, run.runId, o.worker, { ...final, failure: final.failure }, log);
  if (run.variant === 'hardened' && o.drainOutbox)
    await deliverRunOutbox({ pool: o.pool, ports: o.ports, worker: o.worker, runId: run.runId, signal, log });
  return recordCompleted(status, run.runId, o.worker, final, log);
}
