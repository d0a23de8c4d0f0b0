import { RunControl, isGraphDrained } from '@langchain/langgraph';
import type pg from 'pg';
import { DrainedError, type WorkerDrain } from './drain.ts';
import { claimLease, keepLeaseAlive, leaseOwner, releaseLease, type FencedOutError, type Lease } from './lease.ts';
import type { RunRow } from './runs.ts';

/** What a run holds while a worker runs it: its lease (hardened), the abort when the lease is lost, its drain. */
export interface HeldRun {
  lease: Lease | null;
  /** Aborted when the lease is lost: the graph stops, and nothing it writes after is accepted. */
  signal: AbortSignal;
  /** Hardened, the worker's SIGTERM: LangGraph's RunControl, and the signal that stops a wait. */
  drain: { control: RunControl; signal: AbortSignal } | null;
}

/**
 * Runs `body` while this worker holds the run: hardened claims the thread's lease (fencing token),
 * renews it until `body` ends, and releases it; losing it aborts the run and explains whatever the
 * aborted graph threw. Naive holds nothing: nothing stops two workers on one run.
 */
export async function holdRun<T>(
  o: { pool: pg.Pool; worker: string; leaseTtlMs: number; drain?: WorkerDrain | undefined },
  run: RunRow,
  held: { lease: Lease | null },
  log: (line: string) => void,
  body: (h: HeldRun) => Promise<T>,
): Promise<T> {
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
    return await body({ lease, signal: controller.signal, drain: control ? { control, signal: drain!.signal } : null });
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
