import type { DeliveryReceipt, Ports, ReviewState, Durability, Variant } from '@vendor-review/pipeline';
import type pg from 'pg';
import { ReviewSaver } from '../src/checkpointer.ts';
import { RunNotFoundError } from '../src/errors.ts';
import { isAwaitingApproval } from '../src/run-thread.ts';
import { reviewRunnable } from '../src/review-runnable.ts';
import { isTaskResult } from '../src/functional/review.ts';
import { withPool } from '../src/pool.ts';
import { loadRun, type RunRow, type StoredStatus } from '../src/runs.ts';
import { LG_OUTBOX } from '../src/outbox.ts';
import { SELECT_LEASE } from '../src/sql.ts';
import { SELECT_CHECKPOINT_ROWS, SELECT_THREAD_BYTES, SELECT_WRITE_ROWS } from './sql.ts';

/** Reading a run never executes a node; these ports make sure of it. */
const NO_PORTS: Ports = new Proxy({} as Ports, {
  get: () => {
    throw new Error('inspection must not call the outside world');
  },
});

/** A graph (or entrypoint) over a read-only saver: getState / getStateHistory only, no migration blobs written. */
function readerGraph(pool: pg.Pool, run: Pick<RunRow, 'variant' | 'granularity' | 'api'>) {
  const { variant } = run;
  return reviewRunnable(run, { variant, ports: NO_PORTS, worker: 'reader' }, new ReviewSaver(pool, { variant }));
}

/** Everything LangGraph's side knows about a run (the harness's RunView is the contract's, narrower). */
export interface RunDetails {
  runId: string;
  threadId: string;
  variant: Variant;
  durability: Durability;
  checkpointer: RunRow['checkpointer'];
  status: StoredStatus;
  state: ReviewState | null;
  deliveredVia?: 'direct' | 'outbox';
  /** The receipt of the delivered mail, from state (naive) or from the outbox row (hardened). */
  delivery?: DeliveryReceipt & { status: 'sent' | 'pending' | 'dead' };
  error?: string;
  /** Why `state` is null although checkpoints exist (unreadable by this code). */
  stateError?: string;
}

export async function getRun(o: { databaseUrl: string; runId: string }): Promise<RunDetails> {
  return withPool(o.databaseUrl, async (pool) => {
    const run = await loadRun(pool, o.runId);
    if (!run) throw new RunNotFoundError(o.runId);
    let state: ReviewState | null = null;
    let status = run.status;
    let stateError: string | undefined;
    if (run.checkpointer === 'postgres') {
      try {
        const snapshot = await readerGraph(pool, run).getState({ configurable: { thread_id: run.threadId } });
        if (snapshot.config.configurable?.checkpoint_id) {
          state = snapshot.values as ReviewState;
          const waiting = isAwaitingApproval(snapshot);
          if (waiting && (status === 'running' || status === 'pending')) status = 'awaiting-approval';
        }
      } catch (err) {
        stateError = (err as Error).message;
      }
    }
    const [outbox] = await LG_OUTBOX.forRun(pool, run.runId);
    const view: RunDetails = {
      runId: run.runId,
      threadId: run.threadId,
      variant: run.variant,
      durability: run.durability,
      checkpointer: run.checkpointer,
      status,
      state,
      ...(run.error ? { error: run.error } : {}),
      ...(stateError ? { stateError } : {}),
    };
    if (outbox) {
      view.deliveredVia = 'outbox';
      view.delivery = {
        messageId: outbox.receipt?.id ?? '',
        duplicate: outbox.receipt?.duplicate ?? false,
        to: outbox.mail.to,
        status: outbox.status,
      };
    } else if (state?.delivery) {
      view.deliveredVia = 'direct';
      view.delivery = { ...state.delivery, status: 'sent' };
    }
    return view;
  });
}

export interface DurableCheckpoint {
  checkpointId: string;
  parentId: string | null;
  step: number;
  source: string;
  /** The node(s) whose completion this checkpoint records; null for LangGraph's input checkpoint. */
  node: string | null;
  createdAt?: string;
  /** From the checkpoint's provenance row (our saver's; a stock saver writes none): who wrote it, not a lock. */
  writer?: string;
  fencingToken?: number;
  stateSchemaVersion?: number;
}

export interface DurablePendingWrite {
  checkpointId: string;
  taskId: string;
  channel: string;
  node?: string;
}

export interface CheckpointRows {
  checkpoints: DurableCheckpoint[];
  pendingWrites: DurablePendingWrite[];
  /** What the saver's tables hold for the thread (checkpoints, blobs, pending writes), in bytes. */
  bytes: number;
  /** The thread's lease row (hardened), live or released. */
  lease: { owner: string; fencingToken: number } | null;
}

/**
 * What is in LangGraph's tables for the run's thread (and, per checkpoint, its provenance row),
 * oldest first, straight from the rows. Node
 * names are not stored there; they come from LangGraph's own view of each checkpoint's tasks
 * (the tasks of a checkpoint are what ran to produce its children, and own its pending writes).
 */
export async function readCheckpointRows(o: { databaseUrl: string; runId: string }): Promise<CheckpointRows> {
  return withPool(o.databaseUrl, async (pool) => {
    const run = await loadRun(pool, o.runId);
    if (!run) throw new RunNotFoundError(o.runId);
    const [cps, writes, size, leases] = await Promise.all([
      pool.query(SELECT_CHECKPOINT_ROWS, [run.threadId]),
      pool.query(SELECT_WRITE_ROWS, [run.threadId]),
      pool.query(SELECT_THREAD_BYTES, [run.threadId]),
      pool.query(SELECT_LEASE, [run.threadId]),
    ]);
    const tasksOf = new Map<string, Map<string, string>>();
    try {
      for await (const snap of readerGraph(pool, run).getStateHistory({
        configurable: { thread_id: run.threadId },
      })) {
        const id = snap.config.configurable?.checkpoint_id as string;
        tasksOf.set(id, new Map(snap.tasks.map((t) => [t.id, t.name])));
      }
      // An entrypoint's steps are task calls, which a snapshot does not list: their results name them (src/functional/review.ts).
      if (run.api === 'functional')
        for await (const tuple of new ReviewSaver(pool, { variant: run.variant }).list({
          configurable: { thread_id: run.threadId },
        })) {
          const id = tuple.config.configurable?.checkpoint_id as string;
          const names = tasksOf.get(id) ?? new Map<string, string>();
          for (const [taskId, , value] of tuple.pendingWrites ?? [])
            if (isTaskResult(value)) names.set(taskId, value.step);
          tasksOf.set(id, names);
        }
    } catch {
      // An unreadable checkpoint (unknown version) still has rows worth showing, just without node names.
    }
    const checkpoints = cps.rows.map((r): DurableCheckpoint => {
      const meta = r.metadata ?? {};
      const parentTasks = r.parent_checkpoint_id ? tasksOf.get(r.parent_checkpoint_id) : undefined;
      const names = parentTasks ? [...new Set(parentTasks.values())].sort() : [];
      return {
        checkpointId: r.checkpoint_id,
        parentId: r.parent_checkpoint_id ?? null,
        step: Number(meta.step),
        source: String(meta.source),
        node: names.length ? names.join('+') : null,
        ...(r.ts ? { createdAt: r.ts } : {}),
        ...(r.writer ? { writer: r.writer } : {}),
        ...(r.fencing_token !== null ? { fencingToken: Number(r.fencing_token) } : {}),
        ...(r.state_schema_version !== null ? { stateSchemaVersion: r.state_schema_version } : {}),
      };
    });
    const pendingWrites = writes.rows.map((r): DurablePendingWrite => {
      const node = tasksOf.get(r.checkpoint_id)?.get(r.task_id);
      return { checkpointId: r.checkpoint_id, taskId: r.task_id, channel: r.channel, ...(node ? { node } : {}) };
    });
    const lease = leases.rows[0];
    return {
      checkpoints,
      pendingWrites,
      bytes: Number(size.rows[0]?.bytes ?? 0),
      lease: lease ? { owner: lease.owner, fencingToken: Number(lease.fencing_token) } : null,
    };
  });
}
