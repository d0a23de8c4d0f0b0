import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { setupDatabase } from '../src/setup.ts';

/** The server tests create their databases on; a fresh database per test file keeps files independent. */
export const SERVER_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function freshTestDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lg_test_${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  await setupDatabase(url.toString());
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: SERVER_URL });
      await c.connect();
      // A pool's end() resolves before its sockets have closed: a session FORCE terminates then
      // errors in a client nobody listens to any more. Wait (briefly) for the test's own to leave.
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
