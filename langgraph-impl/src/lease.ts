import type pg from 'pg';
import { inTransaction } from '@vendor-review/worker-io';
import {
  BEGIN_FENCED,
  CHECK_FENCE,
  CLAIM_LEASE,
  EXPIRE_LEASES_OF_OWNER,
  RELEASE_LEASE,
  RENEW_LEASE,
  SELECT_LEASE,
} from './sql.ts';

/**
 * One writer per thread. LangGraph loads a thread for whoever asks and takes no lock, so two
 * workers on one thread both execute and both write. A lease row (owner, expiry, fencing token)
 * decides who may; the token, checked inside every write transaction, stops a worker that lost
 * the lease without noticing (frozen, partitioned, paused by SIGSTOP) from writing when it wakes.
 */
export interface Lease {
  threadId: string;
  owner: string;
  token: number;
  ttlMs: number;
  /** When the database last confirmed it (epoch ms): the lease is this worker's until `renewedAt + ttlMs`, and no longer. */
  renewedAt: number;
}

export class LeaseHeldError extends Error {
  override readonly name = 'LeaseHeldError';
  constructor(
    readonly threadId: string,
    readonly holder: string,
    readonly expiresAt: Date,
  ) {
    super(`thread ${threadId} is leased to ${holder} until ${expiresAt.toISOString()}`);
  }
}

export class FencedOutError extends Error {
  override readonly name = 'FencedOutError';
  constructor(
    readonly lease: Lease,
    readonly detail: string,
    /** The lease ran out because the database could not be reached to renew it, not because anyone took it. */
    readonly unreachable = false,
  ) {
    super(
      `worker ${lease.owner} lost the lease on thread ${lease.threadId} (token ${lease.token}): ${detail}; its writes are refused`,
    );
  }
}

export function leaseOwner(workerName: string): string {
  return leaseOwnerOf(workerName, process.pid);
}

/** The owner string of a worker process, as a supervisor that knows its name and pid spells it. */
export function leaseOwnerOf(workerName: string, pid: number): string {
  return `${workerName}#${pid}`;
}

/** Claims the lease or throws LeaseHeldError naming the current holder. */
export async function claimLease(pool: pg.Pool, threadId: string, owner: string, ttlMs: number): Promise<Lease> {
  const { rows } = await pool.query(CLAIM_LEASE, [threadId, owner, ttlMs]);
  if (rows[0]) return { threadId, owner, token: Number(rows[0].fencing_token), ttlMs, renewedAt: Date.now() };
  const held = (await pool.query(SELECT_LEASE, [threadId])).rows[0];
  throw new LeaseHeldError(threadId, held?.owner ?? 'unknown', held?.expires_at ?? new Date());
}

export async function releaseLease(pool: pg.Pool, lease: Lease): Promise<void> {
  await pool.query(RELEASE_LEASE, [lease.threadId, lease.owner, lease.token]);
}

/**
 * For a supervisor only, once it knows the process is gone: ends the leases `owner` (see
 * leaseOwner) still holds. A live owner would be fenced out by this, which is why nobody else calls it.
 */
export async function expireLeasesOf(pool: pg.Pool, owner: string): Promise<number> {
  return (await pool.query(EXPIRE_LEASES_OF_OWNER, [owner])).rowCount ?? 0;
}

/** Why the fence refused, in words, for the error message. */
async function describeLoss(client: pg.PoolClient | pg.Pool, lease: Lease): Promise<string> {
  const row = (await client.query(SELECT_LEASE, [lease.threadId])).rows[0];
  if (!row) return 'the lease row is gone';
  if (Number(row.fencing_token) !== lease.token || row.owner !== lease.owner) {
    return `${row.owner} claimed it since (token ${row.fencing_token})`;
  }
  return `it expired at ${new Date(row.expires_at).toISOString()} without being renewed`;
}

export async function assertFence(client: pg.PoolClient, lease: Lease): Promise<void> {
  const { rowCount } = await client.query(CHECK_FENCE, [lease.threadId, lease.owner, lease.token]);
  if (!rowCount) throw new FencedOutError(lease, await describeLoss(client, lease));
}

/** Runs fn in a transaction that commits only while the lease is still ours. */
export function withFence<T>(
  pool: pg.Pool,
  lease: Lease | null,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return inTransaction(pool, async (client) => {
    if (lease) await assertFence(client, lease);
    return fn(client);
  });
}

/**
 * A pool whose transactions are fenced: each BEGIN checks the lease, so ReviewSaver.put and
 * PostgresSaver.putWrites (each one BEGIN … COMMIT on a pooled client) write only under a valid
 * lease, in the same transaction as the write. The check travels with the BEGIN (BEGIN_FENCED):
 * the fence costs no round trip of its own. Plain pool.query calls (the saver's reads) pass
 * through untouched.
 */
export function fencedPool(pool: pg.Pool, lease: Lease): pg.Pool {
  const connect = async () => {
    const client = await pool.connect();
    const begin = BEGIN_FENCED(
      client.escapeLiteral(lease.threadId),
      client.escapeLiteral(lease.owner),
      client.escapeLiteral(String(lease.token)),
    );
    const query = async (text: unknown, values?: unknown) => {
      if (typeof text !== 'string' || text.trim().toUpperCase() !== 'BEGIN' || values !== undefined) {
        return client.query(text as string, values as unknown[]);
      }
      try {
        const [begun, fence] = (await client.query(begin)) as unknown as pg.QueryResult[];
        if (!fence?.rowCount) throw new FencedOutError(lease, await describeLoss(client, lease));
        return begun;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    };
    return { query, release: (err?: Error | boolean) => client.release(err) };
  };
  return new Proxy(pool, {
    get(target, prop) {
      if (prop === 'connect') return connect;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Renews the lease every third of its lifetime. A failed renewal means somebody else may own the
 * thread now: onLost fires once and the worker must stop (the fence would refuse its writes anyway).
 */
export function keepLeaseAlive(pool: pg.Pool, lease: Lease, onLost: (err: FencedOutError) => void): { stop(): void } {
  let lost = false;
  const timer = setInterval(
    async () => {
      if (lost) return;
      try {
        const { rowCount } = await pool.query(RENEW_LEASE, [lease.threadId, lease.owner, lease.token, lease.ttlMs]);
        if (rowCount) {
          lease.renewedAt = Date.now();
          return;
        }
        lost = true;
        onLost(new FencedOutError(lease, await describeLoss(pool, lease).catch(() => 'renewal refused')));
      } catch {
        // The database may be briefly unreachable; the lease is only gone once it has expired.
        if (Date.now() - lease.renewedAt > lease.ttlMs && !lost) {
          lost = true;
          onLost(new FencedOutError(lease, 'could not renew before expiry', true));
        }
      }
    },
    Math.max(100, Math.floor(lease.ttlMs / 3)),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
