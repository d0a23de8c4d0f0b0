import { survivesConnectionLoss } from '@vendor-review/worker-io';
import pg from 'pg';

/**
 * A pg pool for this package's connections (a worker opens one; short-lived callers one per call). `idle_in_transaction_session_timeout` matters for the
 * lease: a worker frozen with SIGSTOP in the middle of a fenced write would otherwise hold its
 * row lock on the lease for as long as it is frozen, and the worker taking over would wait on it.
 */
export function createPool(databaseUrl: string, opts: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.max ?? 5,
    options: '-c idle_in_transaction_session_timeout=3000 -c lock_timeout=10000',
  });
  // An idle client dropped by the server (e.g. the timeout above) must not crash the process,
  // nor a checked-out one cut off by a restart: its query fails instead, and a hardened worker resumes.
  pool.on('error', () => {});
  return survivesConnectionLoss(pool);
}

export async function withPool<T>(databaseUrl: string, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = createPool(databaseUrl, { max: 2 });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}
