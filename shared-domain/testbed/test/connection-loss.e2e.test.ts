/**
 * "The database went away" against "the database said no", on a real embedded PostgreSQL that
 * is restarted: the errors a client meets in the outage are the first kind, a bad query the second.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLoss, waitForDatabase } from '@vendor-review/worker-io';
import { startPostgres, type PostgresHandle } from '../src/index.ts';

describe('isConnectionLoss', () => {
  let server: PostgresHandle;
  beforeAll(async () => {
    server = await startPostgres({ env: {}, log: () => undefined });
  });
  afterAll(() => server?.stop());

  it('is true for what a client meets while the server restarts, false for an answer', async () => {
    const pool = new pg.Pool({ connectionString: server.url, max: 2 });
    pool.on('error', () => undefined);
    try {
      const held = await pool.connect();
      held.on('error', () => undefined);
      const seen: unknown[] = [];
      await server.restart!({
        whileDown: async () => {
          seen.push(await held.query('SELECT 1').catch((e: unknown) => e)); // the session that was cut
          seen.push(await pool.query('SELECT 1').catch((e: unknown) => e)); // a new connection, refused
        },
      });
      held.release(true);
      expect(seen).toHaveLength(2);
      for (const err of seen) expect(isConnectionLoss(err), String(err)).toBe(true);
      const answer = await pool.query('SELECT * FROM no_such_table').catch((e: unknown) => e);
      expect(isConnectionLoss(answer)).toBe(false);
      expect(isConnectionLoss(new Error('something else'))).toBe(false);
      await waitForDatabase(pool, Date.now() + 10_000);
    } finally {
      await pool.end();
    }
  });

  it('waitForDatabase gives up after its deadline with the last error', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', max: 1 });
    pool.on('error', () => undefined);
    try {
      await expect(waitForDatabase(pool, Date.now() + 300)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await pool.end();
    }
  });
});
