import pg from 'pg';
import { sleep } from './net-probe.ts';

/**
 * Errors that mean "the database went away" (a restart, a failover, a dropped connection), as
 * opposed to "the database said no": the socket refused or cut, or PostgreSQL's own
 * connection-exception and shutdown codes. Only these are worth waiting out; anything else is a
 * real answer and must be handled as one.
 */
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);
// 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now (starting up).
const PG_CODES = /^(08\d{3}|57P0[123])$/;
const MESSAGES =
  /Connection terminated|connection (is )?closed|not queryable|terminating connection|the database system is (starting up|shutting down)/i;

export function isConnectionLoss(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NET_CODES.has(code) || PG_CODES.test(code))) return true;
    if (e instanceof Error && MESSAGES.test(e.message)) return true;
    // AggregateError (several connection attempts refused) carries its reasons in `errors`.
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some(isConnectionLoss)) return true;
  }
  return false;
}

/** Resolves once the database answers a query again; rejects with the last error after `deadline` (epoch ms). */
export async function waitForDatabase(pool: Pick<pg.Pool, 'query'>, deadline: number): Promise<void> {
  for (;;) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      if (!isConnectionLoss(err) || Date.now() > deadline) throw err;
    }
    await sleep(200);
  }
}

/**
 * node-postgres emits 'error' on a client the server cuts off (a restart, a failover); the pool
 * listens only while a client is idle, so a client checked out at that moment (a transaction held
 * across an HTTP call, like the outbox's send) would crash the process with an unhandled 'error'.
 * With a listener for its whole life the cut shows up where it belongs: the client's next query
 * rejects, and the pool drops the client when it is released.
 */
export function survivesConnectionLoss<P extends pg.Pool>(pool: P): P {
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * A worker's pool: a server that drops an idle client or restarts fails the next query instead of
 * crashing the process, and the worker's own retries (or its successor) take it from there.
 */
export function workerPool(connectionString: string, max: number): pg.Pool {
  const pool = survivesConnectionLoss(new pg.Pool({ connectionString, max }));
  pool.on('error', () => {});
  return pool;
}
