import type pg from 'pg';
import { CLAIM_PENDING_NAIVE_RUN, SELECT_HARDENED_RUNS_NEEDING_OWNER } from './sql.ts';

/**
 * Which run a --claim worker should take next. Hardened runs are owned through their lease
 * (executeRun claims it, and a rival loses with LeaseHeldError), so any unfinished run without a
 * live lease qualifies, including one whose worker died. Naive runs have no lease: the best a
 * naive claimer can do is take a pending run once; a naive run whose worker died stays
 * "running" until somebody restarts it by hand, which is the point of the comparison.
 */
export async function nextRunNeedingOwner(pool: pg.Pool, worker: string, skip: string[] = []): Promise<string | null> {
  const hardened = (await pool.query(SELECT_HARDENED_RUNS_NEEDING_OWNER, [skip])).rows[0];
  if (hardened) return hardened.run_id as string;
  const naive = (await pool.query(CLAIM_PENDING_NAIVE_RUN, [worker])).rows[0];
  return naive ? (naive.run_id as string) : null;
}
