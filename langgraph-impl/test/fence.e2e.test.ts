import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimLease, FencedOutError, fencedPool } from '../src/lease.ts';
import { createPool } from '../src/pool.ts';
import { freshTestDatabase } from './db.ts';

let db: { url: string; drop(): Promise<void> };
let pool: pg.Pool;
beforeAll(async () => {
  db = await freshTestDatabase('fence');
  pool = createPool(db.url);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

/** True when the session is outside a transaction: a lone statement's transaction starts with it. */
async function outsideTransaction(client: { query: pg.Pool['query'] }): Promise<boolean> {
  return (await client.query('SELECT now() = statement_timestamp() AS alone')).rows[0].alone;
}

describe('the fence travels with BEGIN', () => {
  it('holds the lease row from BEGIN until COMMIT, so a rival claim waits for the write', async () => {
    const thread = `t-${crypto.randomUUID()}`;
    const lease = await claimLease(pool, thread, 'A#1', 60_000);
    const client = await fencedPool(pool, lease).connect();
    try {
      await client.query('BEGIN');
      const rival = pool.query(`SELECT 1 FROM lg_leases WHERE thread_id = $1 FOR UPDATE NOWAIT`, [thread]);
      await expect(rival).rejects.toMatchObject({ code: '55P03' }); // lock_not_available
      await client.query('COMMIT');
      expect(
        (await pool.query(`SELECT 1 FROM lg_leases WHERE thread_id = $1 FOR UPDATE NOWAIT`, [thread])).rowCount,
      ).toBe(1);
    } finally {
      client.release();
    }
  });

  it('refuses a lost lease at BEGIN, names the new holder, and leaves the connection outside any transaction', async () => {
    const thread = `t-${crypto.randomUUID()}`;
    const lease = await claimLease(pool, thread, 'A#1', 60_000);
    await pool.query(`UPDATE lg_leases SET expires_at = now() - interval '1 second' WHERE thread_id = $1`, [thread]);
    await claimLease(pool, thread, 'B#2', 60_000);
    const client = await fencedPool(pool, lease).connect();
    try {
      const err = await client.query('BEGIN').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FencedOutError);
      expect((err as Error).message).toMatch(/B#2 claimed it since \(token 2\)/);
      expect(await outsideTransaction(client)).toBe(true);
    } finally {
      client.release();
    }
  });

  it('quotes the lease it checks: a thread id with quotes and backslashes is matched, not spliced into the SQL', async () => {
    const thread = `o'brien\\'; DROP TABLE lg_leases; --`;
    const lease = await claimLease(pool, thread, "A'#1", 60_000);
    const client = await fencedPool(pool, lease).connect();
    try {
      await client.query('BEGIN');
      expect(await outsideTransaction(client)).toBe(false);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect((await pool.query(`SELECT owner FROM lg_leases WHERE thread_id = $1`, [thread])).rows).toEqual([
      { owner: "A'#1" },
    ]);
  });
});
