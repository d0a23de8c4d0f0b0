/**
 * A user's database stays tidy: each invocation against DATABASE_URL keeps everything it creates in
 * a database of its own, recorded in one small table; --clean removes exactly those databases. Run
 * against a real PostgreSQL (DATABASE_URL's server, else an embedded one), with the user's own data
 * and a database of someone else's beside ours, neither of which may be touched.
 */
import { freshDatabase, startPostgres, type FreshDatabase, type PostgresHandle } from '@vendor-review/testbed';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanInvocations, openInvocationDatabase, RUNS_TABLE } from '../src/database-runs.ts';
import { startInfra } from '../src/infra.ts';

let server: PostgresHandle;
let user: FreshDatabase;
let someoneElses: FreshDatabase;
const quiet = () => undefined;

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}
const databases = async () =>
  (await query<{ datname: string }>(user.url, 'SELECT datname FROM pg_database')).map((r) => r.datname);
const tables = async (url: string) =>
  (
    await query<{ table_name: string }>(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    )
  ).map((r) => r.table_name);

beforeAll(async () => {
  server = await startPostgres({ log: quiet });
  [user, someoneElses] = await Promise.all([
    freshDatabase(server.url, 'cmp_user'),
    freshDatabase(server.url, 'cmp_other'),
  ]);
  await query(user.url, 'CREATE TABLE customers (name text)');
  await query(user.url, "INSERT INTO customers VALUES ('acme')");
}, 120_000);

afterAll(async () => {
  await cleanInvocations(user.url).catch(() => undefined);
  await user?.drop();
  await someoneElses?.drop();
  await server?.stop();
});

describe('runs against DATABASE_URL', () => {
  it("put every table of this invocation in its own recorded database, none in the user's", async () => {
    const infra = await startInfra({
      runtimes: ['plain'],
      env: { DATABASE_URL: user.url },
      log: quiet,
      command: 'pnpm compare --runtime plain',
    });
    try {
      const name = new URL(infra.databaseUrl).pathname.slice(1);
      expect(name).toMatch(new RegExp(`^${user.name}_cmp_\\d{8}_\\d{6}_[0-9a-f]{4}$`));
      expect(infra.describe().postgres).toContain(`this run's tables in database ${name}`);
      expect(await tables(infra.databaseUrl)).toContain('plain_jobs');
      expect(await tables(user.url)).toEqual(['customers', RUNS_TABLE]);
      const [row] = await query<{ database: string; command: string }>(user.url, `SELECT * FROM ${RUNS_TABLE}`);
      expect(row).toMatchObject({ database: name, command: 'pnpm compare --runtime plain' });
    } finally {
      await infra.teardown();
    }
    // The runs stay to be looked at after the invocation ended.
    const [row] = await query<{ finished_at: Date | null }>(user.url, `SELECT finished_at FROM ${RUNS_TABLE}`);
    expect(row!.finished_at).not.toBeNull();
    expect(await databases()).toContain(new URL(infra.databaseUrl).pathname.slice(1));
  });

  it('--clean removes what earlier invocations created, and nothing else', async () => {
    const second = await openInvocationDatabase(user.url, 'pnpm compare');
    const recorded = (await query<{ database: string }>(user.url, `SELECT database FROM ${RUNS_TABLE}`)).map(
      (r) => r.database,
    );
    expect(recorded).toHaveLength(2);
    expect(recorded).toContain(second.name);
    expect(await cleanInvocations(user.url)).toEqual(recorded);
    const left = await databases();
    for (const d of recorded) expect(left).not.toContain(d);
    expect(left).toEqual(expect.arrayContaining([user.name, someoneElses.name]));
    expect(await query(user.url, 'SELECT name FROM customers')).toEqual([{ name: 'acme' }]);
    expect(await query(user.url, `SELECT * FROM ${RUNS_TABLE}`)).toEqual([]);
    expect(await cleanInvocations(user.url)).toEqual([]);
  });
});
