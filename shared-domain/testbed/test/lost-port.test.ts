/**
 * A server given a port picked free a moment before it binds can lose that port to any other
 * process in between: a test file running beside this one, any program on a user's machine. Here
 * a thief takes the picked port at the worst moment, and each kind of server the harness starts
 * must still come up, on another port, saying so in one line.
 */
import net from 'node:net';
import type * as WorkerIo from '@vendor-review/worker-io';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveTemporalCli, startPostgres, startTemporal } from '../src/index.ts';

/** Which picks the thief takes, and when: `pick`, at once; `check`, once the server has checked the port is free. */
const thief = vi.hoisted(() => ({
  plan: [] as ('pass' | 'pick' | 'check')[],
  afterCheck: new Set<number>(),
  held: [] as net.Server[],
  stolen: [] as number[],
  picks: 0,
}));

async function hold(port: number): Promise<void> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  thief.held.push(server);
  thief.stolen.push(port);
}

vi.mock('@vendor-review/worker-io', async (importOriginal) => {
  const real = await importOriginal<typeof WorkerIo>();
  return {
    ...real,
    freePort: async () => {
      const port = await real.freePort();
      thief.picks++;
      const when = thief.plan.shift() ?? 'pass';
      if (when === 'pick') await hold(port);
      if (when === 'check') thief.afterCheck.add(port);
      return port;
    },
    // The dev server's own check that nothing listens on its port: the thief strikes right after it.
    tcpConnect: async (host: string, port: number, timeoutMs: number) => {
      try {
        return await real.tcpConnect(host, port, timeoutMs);
      } finally {
        if (thief.afterCheck.delete(port)) await hold(port);
      }
    },
  };
});

afterEach(async () => {
  await Promise.all(thief.held.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  thief.plan = [];
  thief.afterCheck.clear();
  thief.stolen = [];
  thief.picks = 0;
});

/** A log that keeps its lines and has the thief let go of what it holds once the server says it waits for it. */
function letGoOnceWaitedFor(lines: string[]) {
  return (line: string) => {
    lines.push(line);
    if (/ is held by another process; waiting /.test(line)) for (const s of thief.held.splice(0)) s.close();
  };
}

const portOf = (address: string) => Number(new URL(`tcp://${address.replace(/^[a-z]+:\/\//, '')}`).port);

function cliOrFail(): string {
  const cli = resolveTemporalCli();
  if (!cli)
    throw new Error('no Temporal CLI: set TEMPORAL_CLI_PATH (bash .ci/run installs one under .cache/temporal-cli)');
  return cli;
}

describe('a server whose picked port is taken before it binds', () => {
  it('embedded PostgreSQL starts on another port', async () => {
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

  it('embedded PostgreSQL restarts on its own port once a process that held it lets go', async () => {
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

  const cli = cliOrFail();

  it('the Temporal dev server starts on another port when the port is taken before its check', async () => {
    thief.plan = ['pick'];
    const lines: string[] = [];
    const t = await startTemporal({ env: { TEMPORAL_CLI_PATH: cli }, log: (l) => lines.push(l) });
    try {
      expect(thief.stolen).toHaveLength(1);
      expect(portOf(t.address)).not.toBe(thief.stolen[0]);
      expect(lines[0]).toBe(
        `temporal: dev server: port ${thief.stolen[0]} was taken by another process before the server bound it; trying a fresh port (2 of 5)`,
      );
      expect(lines).toHaveLength(2);
    } finally {
      await t.stop();
    }
  });

  it('the Temporal dev server starts on another port when the port is taken after its check, before it binds', async () => {
    thief.plan = ['check'];
    const lines: string[] = [];
    const t = await startTemporal({ env: { TEMPORAL_CLI_PATH: cli }, log: (l) => lines.push(l) });
    try {
      expect(thief.stolen).toHaveLength(1);
      expect(portOf(t.address)).not.toBe(thief.stolen[0]);
      expect(lines[0]).toBe(
        `temporal: dev server: port ${thief.stolen[0]} was taken by another process before the server bound it; trying a fresh port (2 of 5)`,
      );
      // The process that holds the stolen port never passes for the dev server.
      expect(t.pid).toBeGreaterThan(0);
    } finally {
      await t.stop();
    }
  });

  it("the Temporal dev server with its UI (the lab's) starts on other ports when the UI's port is taken", async () => {
    thief.plan = ['pass', 'pick'];
    const lines: string[] = [];
    const t = await startTemporal({ env: { TEMPORAL_CLI_PATH: cli }, ui: true, log: (l) => lines.push(l) });
    try {
      expect(thief.stolen).toHaveLength(1);
      expect(Number(new URL(t.uiUrl!).port)).not.toBe(thief.stolen[0]);
      expect(lines[0]).toBe(
        `temporal: dev server: port ${thief.stolen[0]} was taken by another process before the server bound it; trying a fresh port (2 of 5)`,
      );
      const ui = await fetch(t.uiUrl!);
      expect(ui.status).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it('the Temporal dev server restarts on its own port once a process that held it lets go', async () => {
    const lines: string[] = [];
    const t = await startTemporal({ env: { TEMPORAL_CLI_PATH: cli }, log: letGoOnceWaitedFor(lines) });
    try {
      const port = portOf(t.address);
      await t.restart!({ whileDown: () => hold(port) });
      expect(portOf(t.address)).toBe(port);
      expect(lines).toContain(
        `temporal: dev server: port ${port} is held by another process; waiting up to 5 s for it`,
      );
    } finally {
      await t.stop();
    }
  });

  it('a start that fails for another reason fails at once, in one line', async () => {
    const lines: string[] = [];
    await expect(
      startTemporal({ env: { TEMPORAL_CLI_PATH: '/bin/false' }, repoCli: false, log: (l) => lines.push(l) }),
    ).rejects.toThrow(
      /^temporal: dev server `\/bin\/false server start-dev .*` exited with 1 before it was ready: fix the CLI/,
    );
    expect(lines).toEqual([]);
    expect(thief.picks).toBe(1);
  });
});
