/**
 * A server given a port picked free a moment before it binds can lose that port to any other
 * process in between: a test file running beside this one, any program on a user's machine. Here
 * a thief (port-thief.ts) takes the picked port at the worst moment, and the embedded PostgreSQL
 * must still come up, on another port, saying so in one line. (Each runtime's own server has the
 * same test in its package.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hold, letGoOnceWaitedFor, releaseAll, thief } from '../src/port-thief.ts';
import { startPostgres } from '../src/index.ts';

vi.mock('@vendor-review/worker-io', async (real) => (await import('../src/port-thief.ts')).stealing(await real()));

afterEach(releaseAll);

describe('the embedded PostgreSQL, whose picked port is taken before it binds', () => {
  it('starts on another port', async () => {
    thief.plan = ['pick'];
    const lines: string[] = [];
    const pg = await startPostgres({ env: {}, log: (l) => lines.push(l) });
    try {
      expect(thief.stolen).toHaveLength(1);
      const port = Number(new URL(pg.url).port);
      expect(port).not.toBe(thief.stolen[0]);
      expect(lines[0]).toBe(
        `postgres: embedded PostgreSQL: port ${thief.stolen[0]} was taken by another process before the server bound it; trying a fresh port (2 of 5)`,
      );
      expect(lines.at(-1)).toMatch(new RegExp(`^postgres: embedded PostgreSQL 17\\.\\d+ on 127\\.0\\.0\\.1:${port} `));
    } finally {
      await pg.stop();
    }
  });

  it('restarts on its own port once a process that held it lets go', async () => {
    const lines: string[] = [];
    const pg = await startPostgres({ env: {}, log: letGoOnceWaitedFor(lines) });
    try {
      const port = Number(new URL(pg.url).port);
      await pg.restart!({ whileDown: () => hold(port) });
      expect(Number(new URL(pg.url).port)).toBe(port);
      expect(thief.stolen).toEqual([port]);
      expect(lines).toContain(
        `postgres: embedded PostgreSQL: port ${port} is held by another process; waiting up to 5 s for it`,
      );
    } finally {
      await pg.stop();
    }
  });
});
