/**
 * The embedded PostgreSQL restarted for real (the restart hazard and a chaos campaign use this):
 * committed data and the port survive, sessions are cut, a transaction in flight is rolled back,
 * and stop() afterwards still leaves nothing behind.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { withConnection } from '@vendor-review/worker-io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresHandle } from './index.ts';
import { isProcessAlive } from './process-cleanup.ts';

const query = <T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> =>
  withConnection(url, async (client) => (await client.query<T>(sql)).rows);

const postmasterPid = async (dataDir: string) =>
  Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);

describe('embedded PostgreSQL restarted', () => {
  let server: PostgresHandle;
  let dataDir: string;

  beforeAll(async () => {
    const lines: string[] = [];
    // An empty env: the embedded path even where CI exports DATABASE_URL.
    server = await startPostgres({ env: {}, log: (l) => lines.push(l) });
    dataDir = /\(data in (.+)\)$/.exec(lines[0] ?? '')![1]!;
  });
  afterAll(() => server?.stop());

  it('keeps committed rows and its port, cuts every session, and rolls back what was in flight', async () => {
    await query(server.url, 'create table kept (note text)');
    await query(server.url, `insert into kept values ('committed before the restart')`);
    const inFlight = new pg.Client({ connectionString: server.url });
    const cut: Error[] = [];
    inFlight.on('error', (err) => cut.push(err));
    await inFlight.connect();
    await inFlight.query('begin');
    await inFlight.query(`insert into kept values ('never committed')`);
    const before = await postmasterPid(dataDir);

    let refusedWhileDown: unknown = null;
    const { downMs } = await server.restart!({
      whileDown: async () => {
        refusedWhileDown = await query(server.url, 'select 1').catch((err: unknown) => err);
      },
    });

    expect((refusedWhileDown as { code?: string })?.code).toBe('ECONNREFUSED');
    expect(downMs).toBeGreaterThan(0);
    expect(isProcessAlive(before)).toBe(false);
    expect(await postmasterPid(dataDir)).not.toBe(before);
    expect(await query(server.url, 'select note from kept')).toEqual([{ note: 'committed before the restart' }]);
    // admin_shutdown first, then the socket closing under it
    expect((cut[0] as { code?: string } | undefined)?.code).toBe('57P01');
    await expect(inFlight.query('commit')).rejects.toThrow();
    await inFlight.end().catch(() => undefined);
  });

  it('restarts one at a time when asked twice at once', async () => {
    const order: string[] = [];
    await Promise.all([
      server.restart!({ whileDown: () => void order.push('first down') }),
      server.restart!({ whileDown: () => void order.push('second down') }),
    ]);
    expect(order).toEqual(['first down', 'second down']);
    expect(await query(server.url, 'select count(*)::int as n from kept')).toEqual([{ n: 1 }]);
  });

  it('a hook that fails while the server is down: the server comes back anyway, then the failure is reported', async () => {
    await expect(
      server.restart!({
        whileDown: () => {
          throw new Error('the hook broke');
        },
      }),
    ).rejects.toThrow('the hook broke');
    expect(await query(server.url, 'select count(*)::int as n from kept')).toEqual([{ n: 1 }]);
  });

  it('stop() after restarts stops the new postmaster and removes the data directory; no restart after it', async () => {
    const pid = await postmasterPid(dataDir);
    await server.stop();
    expect(isProcessAlive(pid)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
    await expect(server.restart!()).rejects.toThrow(/cannot restart the embedded server on port \d+: it was stopped/);
  });

  it('an external server cannot be restarted: the handle has no restart', async () => {
    const own = await startPostgres({ env: {}, log: () => undefined });
    try {
      const external = await startPostgres({ env: { DATABASE_URL: own.url }, log: () => undefined });
      expect(external.kind).toBe('external');
      expect(external.restart).toBeUndefined();
    } finally {
      await own.stop();
    }
  });
});
