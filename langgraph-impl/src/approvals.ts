import type pg from 'pg';
import { withPool } from './pool.ts';
import { INSERT_APPROVAL, MARK_APPROVAL_CONSUMED, SELECT_APPROVAL } from './sql.ts';

/**
 * A human's decision is business data, stored in our table rather than handed to a live process:
 * it can be recorded while no worker is alive (or before the run even reaches the gate), and
 * whichever worker next finds the thread interrupted at AWAIT_APPROVAL resumes it with it.
 */
export interface Decision {
  approved: boolean;
  by: string;
  note?: string;
}

export async function recordApproval(pool: pg.Pool, runId: string, d: Decision): Promise<void> {
  await pool.query(INSERT_APPROVAL, [runId, d.approved, d.by, d.note ?? null]);
}

export async function approveRun(o: {
  databaseUrl: string;
  runId: string;
  approved: boolean;
  by: string;
  note?: string;
}): Promise<void> {
  await withPool(o.databaseUrl, (pool) =>
    recordApproval(pool, o.runId, { approved: o.approved, by: o.by, ...(o.note ? { note: o.note } : {}) }),
  );
}

export async function findApproval(pool: pg.Pool, runId: string): Promise<Decision | null> {
  const r = (await pool.query(SELECT_APPROVAL, [runId])).rows[0];
  return r ? { approved: r.approved, by: r.decided_by, ...(r.note ? { note: r.note } : {}) } : null;
}

export async function markApprovalConsumed(pool: pg.Pool, runId: string, worker: string): Promise<void> {
  await pool.query(MARK_APPROVAL_CONSUMED, [runId, worker]);
}

/** Polls until a decision exists or the signal aborts. */
export async function waitForApproval(
  pool: pg.Pool,
  runId: string,
  opts: { pollMs?: number; signal?: AbortSignal } = {},
): Promise<Decision | null> {
  while (!opts.signal?.aborted) {
    const d = await findApproval(pool, runId);
    if (d) return d;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
  }
  return null;
}

/**
 * The decision a run at the gate resumes with: the one recorded, or else (after `waiting`) the
 * first one recorded from now on. Marked consumed by `worker`. Throws the signal's reason when it
 * aborts first (a lost lease, a drain).
 */
export async function takeDecision(
  pool: pg.Pool,
  runId: string,
  worker: string,
  opts: { pollMs: number; signal: AbortSignal; waiting: () => Promise<void>; log: (line: string) => void },
): Promise<Decision> {
  const recorded = await findApproval(pool, runId);
  if (!recorded) await opts.waiting();
  const decision = recorded ?? (await waitForApproval(pool, runId, { pollMs: opts.pollMs, signal: opts.signal }));
  if (!decision) throw opts.signal.reason ?? new Error('stopped while waiting for approval');
  opts.log(`approval found: ${decision.approved ? 'approved' : 'rejected'} by ${decision.by}`);
  await markApprovalConsumed(pool, runId, worker);
  return decision;
}
