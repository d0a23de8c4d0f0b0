import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '@vendor-review/worker-io';
import { freshDatabase, type FreshDatabase } from '../src/postgres-databases.ts';

const SERVER_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let db: FreshDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await freshDatabase(SERVER_URL, 'migrations_test');
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

let n = 0;
/** Each test gets its own tables and lock key: the tests share one database. */
function names() {
  n += 1;
  return { table: `mig_${n}`, lockKey: 90_000 + n, t: (x: string) => `t${n}_${x}` };
}

async function recorded(table: string): Promise<number[]> {
  return (await pool.query<{ v: number }>(`SELECT v FROM ${table} ORDER BY v`)).rows.map((r) => r.v);
}

describe('runMigrations', () => {
  it('applies the list in order, once, and records each number', async () => {
    const { table, lockKey, t } = names();
    // Not idempotent on purpose: a second application would fail on the duplicate table.
    const migrations = [`CREATE TABLE ${t('a')} (x int)`, `INSERT INTO ${t('a')} VALUES (1)`];
    expect(await runMigrations(pool, { table, lockKey, migrations })).toEqual({ applied: [1, 2], version: 2 });
    expect(await runMigrations(pool, { table, lockKey, migrations })).toEqual({ applied: [], version: 2 });
    expect(await recorded(table)).toEqual([1, 2]);
    expect((await pool.query(`SELECT count(*)::int AS c FROM ${t('a')}`)).rows[0].c).toBe(1);
  });

  it('applies only what was appended since the last run', async () => {
    const { table, lockKey, t } = names();
    const first = [`CREATE TABLE ${t('a')} (x int)`];
    await runMigrations(pool, { table, lockKey, migrations: first });
    const more = [...first, `ALTER TABLE ${t('a')} ADD COLUMN y int`, `CREATE TABLE ${t('b')} (z int)`];
    expect(await runMigrations(pool, { table, lockKey, migrations: more })).toEqual({ applied: [2, 3], version: 3 });
    expect(await recorded(table)).toEqual([1, 2, 3]);
  });

  it('a failing migration leaves neither its changes nor its record; earlier ones stay; a fixed list resumes there', async () => {
    const { table, lockKey, t } = names();
    const broken = [`CREATE TABLE ${t('a')} (x int)`, `CREATE TABLE ${t('b')} (x int); SELECT 1/0`];
    await expect(runMigrations(pool, { table, lockKey, migrations: broken })).rejects.toThrow(
      new RegExp(`migration 2 of ${table} failed: division by zero`),
    );
    expect(await recorded(table)).toEqual([1]);
    expect((await pool.query(`SELECT to_regclass($1) AS r`, [t('b')])).rows[0].r).toBeNull();
    const fixed = [broken[0]!, `CREATE TABLE ${t('b')} (x int)`];
    expect(await runMigrations(pool, { table, lockKey, migrations: fixed })).toEqual({ applied: [2], version: 2 });
  });

  it('concurrent runners on separate connections apply each migration exactly once', async () => {
    const { table, lockKey, t } = names();
    const migrations = [
      `CREATE TABLE ${t('log')} (v int)`,
      // pg_sleep widens the window in which an unserialised second runner would see version 1 too
      `SELECT pg_sleep(0.2); INSERT INTO ${t('log')} VALUES (2)`,
      `INSERT INTO ${t('log')} VALUES (3)`,
    ];
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: db.url, max: 1 }));
    try {
      const results = await Promise.all(pools.map((p) => runMigrations(p, { table, lockKey, migrations })));
      expect(results.flatMap((r) => r.applied).sort()).toEqual([1, 2, 3]);
      expect(results.every((r) => r.version === 3)).toBe(true);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
    expect((await pool.query(`SELECT v FROM ${t('log')} ORDER BY v`)).rows.map((r) => r.v)).toEqual([2, 3]);
  });

  it('takes a connected client too, and releases the lock for the next session', async () => {
    const { table, lockKey, t } = names();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const other = await pool.connect();
    try {
      const r = await runMigrations(client, { table, lockKey, migrations: [`CREATE TABLE ${t('a')} (x int)`] });
      expect(r.applied).toEqual([1]);
      // asked while `client` is still connected: its session must not keep the lock
      expect((await other.query('SELECT pg_try_advisory_lock($1) AS got', [lockKey])).rows[0].got).toBe(true);
      await other.query('SELECT pg_advisory_unlock($1)', [lockKey]);
    } finally {
      other.release();
      await client.end();
    }
  });

  it('a database migrated further by newer code is left alone', async () => {
    const { table, lockKey, t } = names();
    const newer = [`CREATE TABLE ${t('a')} (x int)`, `CREATE TABLE ${t('b')} (x int)`];
    await runMigrations(pool, { table, lockKey, migrations: newer });
    expect(await runMigrations(pool, { table, lockKey, migrations: newer.slice(0, 1) })).toEqual({
      applied: [],
      version: 2,
    });
  });
});
