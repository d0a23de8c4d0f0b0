import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, InfraError, maskDatabaseUrl, startPostgres, type PostgresHandle } from './index.ts';
import { freePort, withConnection } from '@vendor-review/worker-io';
import { isProcessAlive } from './process-cleanup.ts';

const quiet = () => undefined;

const query = <T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> =>
  withConnection(url, async (client) => (await client.query<T>(sql)).rows);

describe('embedded PostgreSQL', () => {
  let server: PostgresHandle;
  const lines: string[] = [];

  beforeAll(async () => {
    // An empty env: the embedded path is exercised even where CI exports DATABASE_URL.
    server = await startPostgres({ env: {}, log: (line) => lines.push(line) });
  });
  afterAll(() => server?.stop());

  it('is a real server that answers queries in its own fresh database', async () => {
    expect(server.kind).toBe('embedded');
    const [row] = await query<{ db: string; v: string }>(server.url, 'select current_database() as db, version() as v');
    expect(row?.db).toBe('vendor_review');
    expect(row?.v).toMatch(/^PostgreSQL 17\./);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^postgres: embedded PostgreSQL 17\.\d+ on 127\.0\.0\.1:\d+ \(data in .+\)$/);
  });

  it('hands out isolated databases that are gone after drop()', async () => {
    const a = await freshDatabase(server.url, 'Infra Test');
    const b = await freshDatabase(server.url, 'infra_test');
    expect(a.name).toMatch(/^infra_test_/);
    expect(a.name).not.toBe(b.name);
    await query(a.url, 'create table only_in_a (x int)');
    await expect(query(b.url, 'select * from only_in_a')).rejects.toThrow(/does not exist/);
    const holder = new pg.Client({ connectionString: a.url });
    holder.on('error', () => undefined);
    await holder.connect(); // drop() does not wait for a session that stays: it disconnects it
    await a.drop();
    await b.drop();
    const left = await query<{ datname: string }>(
      server.url,
      `select datname from pg_database where datname like 'infra_test_%'`,
    );
    expect(left).toEqual([]);
    await holder.end().catch(() => undefined);
  });

  it('is used as an external server when DATABASE_URL points at it', async () => {
    const lines: string[] = [];
    const external = await startPostgres({ env: { DATABASE_URL: server.url }, log: (l) => lines.push(l) });
    expect(external).toMatchObject({ kind: 'external', url: server.url });
    expect(lines).toEqual([`postgres: using DATABASE_URL ${maskDatabaseUrl(server.url)}`]);
    expect(lines[0]).not.toContain(new URL(server.url).password);
    await external.stop(); // must leave the server alone
    expect(await query(server.url, 'select 1 as one')).toEqual([{ one: 1 }]);
  });

  // Last in this block: it stops the shared server.
  it('stops: the postmaster exits and the data directory is removed', async () => {
    const dataDir = /\(data in (.+)\)$/.exec(lines[0] ?? '')?.[1];
    expect(dataDir).toBeDefined();
    const pid = Number((await readFile(path.join(dataDir!, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    expect(isProcessAlive(pid)).toBe(true);
    await server.stop();
    expect(isProcessAlive(pid)).toBe(false);
    expect(existsSync(dataDir!)).toBe(false);
    await server.stop(); // idempotent
  });
});

describe('DATABASE_URL that cannot be used', () => {
  it('fails with one line naming the masked URL and the two fixes', async () => {
    const port = await freePort(); // nothing listens there
    const url = `postgres://app:s3cret@127.0.0.1:${port}/reviews`;
    const err = await startPostgres({ env: { DATABASE_URL: url }, log: quiet }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).not.toContain('s3cret');
    expect(message).toContain(`postgres://app:***@127.0.0.1:${port}/reviews`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).toMatch(/start that server/);
    expect(message).toMatch(/unset DATABASE_URL to use an embedded PostgreSQL/);
  });
});
