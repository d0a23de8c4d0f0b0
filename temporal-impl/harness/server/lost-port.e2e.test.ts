/**
 * The Temporal dev server is given a port picked free a moment before it binds (the CLI cannot
 * bind port 0 and report it): any other process may take it in between. A thief
 * (`@vendor-review/testbed/port-thief`) takes the picked port at the worst moments, and the server
 * must still come up, on another port, saying so in one line.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hold, letGoOnceWaitedFor, releaseAll, thief } from '@vendor-review/testbed/port-thief';
import { cliOrFail } from './cli-for-tests.ts';
import { startTemporal } from './index.ts';

vi.mock('@vendor-review/worker-io', async (real) =>
  (await import('@vendor-review/testbed/port-thief')).stealing(await real()),
);

afterEach(releaseAll);

const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));
const lost = (port: number | undefined) =>
  `temporal: dev server: port ${port} was taken by another process before the server bound it; trying a fresh port (2 of 5)`;

describe('the Temporal dev server, whose picked port is taken before it binds', () => {
  const env = { TEMPORAL_CLI_PATH: cliOrFail() };

  // The first of the lines it logs says which port was lost; a theft before its own check costs it
  // only that one more line.
  it.each([
    ['before its own check', 'pick', 2],
    ['after its check, before it binds', 'check', undefined],
  ] as const)('starts on another port when the port is taken %s', async (_when, step, lineCount) => {
    thief.plan = [step];
    const lines: string[] = [];
    const t = await startTemporal({ env, log: (l) => lines.push(l) });
    try {
      expect(thief.stolen).toHaveLength(1);
      expect(portOf(t.address)).not.toBe(thief.stolen[0]);
      expect(lines[0]).toBe(lost(thief.stolen[0]));
      if (lineCount !== undefined) expect(lines).toHaveLength(lineCount);
    } finally {
      await t.stop();
    }
  });

  it("with its UI (the lab's): starts on other ports when the UI's port is taken", async () => {
    thief.plan = ['pass', 'pick'];
    const lines: string[] = [];
    const t = await startTemporal({ env, ui: true, log: (l) => lines.push(l) });
    try {
      expect(thief.stolen).toHaveLength(1);
      expect(Number(new URL(t.uiUrl!).port)).not.toBe(thief.stolen[0]);
      expect(lines[0]).toBe(lost(thief.stolen[0]));
      expect((await fetch(t.uiUrl!)).status).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it('restarts on its own port once a process that held it lets go', async () => {
    const lines: string[] = [];
    const t = await startTemporal({ env, log: letGoOnceWaitedFor(lines) });
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
