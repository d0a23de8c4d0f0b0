import { isConnectionLoss, waitForDatabase } from '@vendor-review/worker-io';
import type pg from 'pg';
import { FencedOutError, leaseOwner, type Lease } from './lease.ts';
import { loadRun, type RunRow } from './runs.ts';
import { SELECT_LEASE } from './sql.ts';

/** How long a hardened worker waits for a database that went away before it gives up the run. */
const DATABASE_WAIT_MS = Number(process.env.DATABASE_WAIT_MS ?? 60_000);

/** The database went away under the run: a connection error, or the lease lapsing because it could not be renewed. */
function isDatabaseLoss(err: unknown): boolean {
  return (err instanceof FencedOutError && err.unreachable) || isConnectionLoss(err);
}

/**
 * Hardened: the database going away mid-run (a restart, a failover) does not end the run. The
 * write that met the outage failed; the worker waits until the database answers and, if nobody
 * else has taken the lease meanwhile, returns so that the caller resumes from the last checkpoint
 * with a new fencing token: the step in flight runs again (its effects carry their keys) and
 * nothing it wrote under the old token can land. Anything else, and every naive run, throws: the
 * worker dies and only a restart resumes it.
 */
export async function outlastDatabaseLoss(
  o: { pool: pg.Pool; runId: string; worker: string; leaseTtlMs: number },
  lease: Lease | null,
  err: unknown,
  resumes: number,
  log: (line: string) => void,
): Promise<void> {
  if (!isDatabaseLoss(err)) throw err;
  const since = Date.now();
  // Past its lease's end, the run may be another worker's: waiting longer would only keep a
  // worker alive that must not act, so it gives the run up the moment the lease lapses.
  const deadline = lease ? Math.min(since + DATABASE_WAIT_MS, lease.renewedAt + lease.ttlMs) : since + DATABASE_WAIT_MS;
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
  if (holder !== undefined && holder !== leaseOwner(o.worker)) throw takenOver(o, run, lease, now, err);
  log(
    `the database went away (${(err as Error).message}); it answers again after ${Date.now() - since} ms: resuming from the last checkpoint (resume ${resumes})`,
  );
}

/**
 * The connection died while this worker held the run, and another worker holds it now: this one was
 * fenced out, and says so (exit fencedOut) instead of dying of the connection error (exit 1, as a
 * crash). Found by the chaos campaign: a worker frozen (SIGSTOP) inside the outbox's send, whose
 * transaction PostgreSQL ended after idle_in_transaction_session_timeout while a second worker took
 * the run over and delivered it, woke up and left with "unexpected error: Connection terminated".
 */
function takenOver(
  o: { worker: string; leaseTtlMs: number },
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
