import { withPool } from './pool.ts';
import {
  DELETE_FINISHED_OUTBOX,
  DELETE_RUN_APPROVALS,
  DELETE_RUN_STEP_ERRORS,
  DELETE_SPENT_LEASES,
  DELETE_THREAD_CHECKPOINTS,
  MARK_RUNS_PURGED,
  SELECT_EXPIRED_RUNS,
} from './sql.ts';

/**
 * Deletes the checkpoints (and pending writes, blobs, provenance, delivered outbox rows, the approval,
 * the steps' own-error counts and the spent lease row) of runs that finished more than `olderThanMs` ago; `runIds` limits it to those runs. A run that is not finished, or whose thread has a live lease, is
 * never touched: deleting a live run's checkpoints would turn its next resume into a restart.
 * The run row stays, marked purged, so a later resume can say why nothing is left.
 */
export async function runRetention(o: {
  databaseUrl: string;
  olderThanMs: number;
  runIds?: readonly string[];
}): Promise<{ deletedThreads: number; runIds: string[] }> {
  if (!Number.isFinite(o.olderThanMs) || o.olderThanMs < 0)
    throw new Error(`olderThanMs must be a non-negative number, got ${o.olderThanMs}`);
  return withPool(o.databaseUrl, async (pool) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(SELECT_EXPIRED_RUNS, [o.olderThanMs, o.runIds ?? null]);
      const runIds = rows.map((r) => r.run_id as string);
      const threadIds = rows.map((r) => r.thread_id as string);
      if (rows.length > 0) {
        for (const sql of DELETE_THREAD_CHECKPOINTS) await client.query(sql, [threadIds]);
        await client.query(DELETE_FINISHED_OUTBOX, [runIds]);
        await client.query(DELETE_RUN_APPROVALS, [runIds]);
        await client.query(DELETE_RUN_STEP_ERRORS, [runIds]);
        await client.query(DELETE_SPENT_LEASES, [threadIds]);
        await client.query(MARK_RUNS_PURGED, [runIds]);
      }
      await client.query('COMMIT');
      return { deletedThreads: rows.length, runIds };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  });
}

/** "30d", "12h", "15m", "45s" or plain milliseconds. */
export function parseWindow(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) throw new Error(`cannot read "${text}" as a time window; use e.g. 30d, 12h, 15m, 45s or milliseconds`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 'ms') as 'ms'];
  return Number(m[1]) * unit;
}
