/**
 * A runtime that brings its own server comes in as one package and one registry line: here a fake
 * one (fake-runtime.ts) is registered, and compare's bring-up, chaos's strikes, the bench's context
 * and the lab start its server, hand its runtime the connection, restart it and stop it, from what
 * its module declares alone. No tool names it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Runtimes from '../src/runtimes.ts';
import { ACME_SERVER, events } from './fake-runtime.ts';

vi.mock('../src/runtimes.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Runtimes>();
  const fake = await import('./fake-runtime.ts');
  const runtimeModule = async (name: string) => (name === 'acme' ? fake.runtime : real.runtimeModule(name));
  const runtimeModules = (names: readonly string[] = [...real.RUNTIME_NAMES, 'acme']) =>
    Promise.all(names.map(runtimeModule));
  return {
    ...real,
    RUNTIME_NAMES: [...real.RUNTIME_NAMES, 'acme'],
    runtimeModule,
    runtimeModules,
    runtimeInfos: async (names?: readonly string[]) => (await runtimeModules(names)).map((m) => m.info),
    startRuntime: async (name: string, env: Parameters<typeof real.startRuntime>[1]) =>
      (await runtimeModule(name)).start(env),
    runtimeVersions: async (names?: readonly string[]) =>
      Object.fromEntries((await runtimeModules(names)).map((m) => [m.info.name, m.versions()])),
  };
});

const quiet = () => undefined;
// A PostgreSQL of the harness's own: the fake needs nothing else from the machine.
const env = { PATH: process.env.PATH };

afterEach(() => {
  events.length = 0;
});

describe('a registered runtime that brings its own server', () => {
  it('compare: its server comes up (state on disk), its runtime is given the connection, and all of it is torn down', async () => {
    const { startInfra, serverVersions } = await import('../src/infra.ts');
    const infra = await startInfra({ runtimes: ['acme'], env, log: quiet });
    try {
      const [started] = events;
      expect(started).toMatch(/^start 127\.0\.0\.1:\d+ on disk$/);
      const where = started!.split(' ')[1];
      expect(events).toContain(`runtime on ${where} with a database`);
      expect(infra.connections).toEqual({ [ACME_SERVER.id]: { address: where } });
      expect(infra.describe().servers).toEqual([
        { title: 'Acme server', description: expect.stringMatching(`^Acme at ${where}, state in /`), ui: null },
      ]);
      expect(serverVersions(infra)).toEqual({ 'Acme server': '9.9.9' });
      expect(infra.hazardInfra.servers?.[ACME_SERVER.id]?.restart).toBeTypeOf('function');
    } finally {
      await infra.teardown();
    }
    expect(events.filter((e) => e.startsWith('stop') || e.startsWith('runtime closed'))).toHaveLength(2);
  });

  it('compare with the restart hazards: a second server of its own for them, kept on disk, restarted there only', async () => {
    const { startInfra } = await import('../src/infra.ts');
    const infra = await startInfra({ runtimes: ['acme'], env, log: quiet, restartServers: 'every' });
    try {
      const starts = events.filter((e) => e.startsWith('start'));
      expect(starts).toEqual([
        expect.stringMatching(/^start \S+ in memory$/),
        expect.stringMatching(/^start \S+ on disk own$/),
      ]);
      const own = starts[1]!.split(' ')[1];
      expect(infra.restarting?.described).toMatch(`Acme at ${own}, state in /`);
      await infra.restarting!.hazardInfra.servers![ACME_SERVER.id]!.restart!();
      expect(events).toContain(`restart ${own}`);
      expect(events.filter((e) => e.startsWith('restart'))).toHaveLength(1);
    } finally {
      await infra.teardown();
    }
    expect(events.filter((e) => e.startsWith('stop'))).toHaveLength(2);
  });

  it('compare with only PostgreSQL restarted: its server is shared with the restart hazards, not started twice', async () => {
    const { startInfra } = await import('../src/infra.ts');
    const infra = await startInfra({ runtimes: ['acme'], env, log: quiet, restartServers: 'postgres' });
    try {
      expect(events.filter((e) => e.startsWith('start'))).toHaveLength(1);
      expect(infra.restarting?.described).toMatch(/^embedded PostgreSQL /);
      expect(infra.restarting?.described).not.toMatch(/Acme/);
      expect(infra.restarting!.hazardInfra.servers?.[ACME_SERVER.id]).toBe(infra.hazardInfra.servers?.[ACME_SERVER.id]);
    } finally {
      await infra.teardown();
    }
  });

  it('chaos: a server-restart strike restarts it, and counts for the pool whose runs keep something there', async () => {
    const { startInfra } = await import('../src/infra.ts');
    const { Injector } = await import('../src/chaos/injector.ts');
    const { Journal } = await import('../src/chaos/journal.ts');
    const infra = await startInfra({ runtimes: ['acme'], env, log: quiet });
    try {
      const pool = { id: 'acme/hardened', release: () => undefined } as never;
      const injector = new Injector({
        strikes: [],
        pools: [{ pool, servers: ['postgres', ACME_SERVER.id], inFlight: () => [] }],
        servers: infra.hazardInfra,
        world: {} as never,
        journal: new Journal(),
        approveWaiting: async () => new Map(),
      });
      await injector.fireNow({ seq: 1, at: 0, kind: 'server-restart', pick: 0 } as never);
      expect(events.filter((e) => e.startsWith('restart'))).toHaveLength(1);
      expect(injector.counts.get('acme/hardened')!['server-restart']).toBe(1);
    } finally {
      await infra.teardown();
    }
  });

  it('bench: each profile is given the connection to its server', async () => {
    const { openContext } = await import('../src/bench/context.ts');
    const { planFor } = await import('../src/bench/plan.ts');
    const { ctx, close } = await openContext({ plan: planFor('smoke', 2), runtimes: ['acme'], log: quiet });
    try {
      const where = events[0]!.split(' ')[1];
      expect(ctx.env.servers).toEqual({ [ACME_SERVER.id]: { address: where } });
    } finally {
      await close();
    }
    expect(events.some((e) => e.startsWith('stop'))).toBe(true);
  });

  it('lab: its server is its own, on disk in the lab, with its UI; a later command checks it before starting the runtime on it', async () => {
    const { startLabServers } = await import('../src/lab/servers.ts');
    const { openRuntime } = await import('../src/lab/runtimes.ts');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lab-acme-'));
    const { state, stops } = await startLabServers({
      dir,
      runtimes: ['acme'],
      modelLatencyMs: 0,
      pageLatencyMs: 0,
      worldPort: 0,
      log: quiet,
    });
    try {
      expect(events[0]).toMatch(/^start \S+ on disk own ui$/);
      const kept = state.servers[ACME_SERVER.id]!;
      expect(kept).toMatchObject({ title: 'the Acme server', uiUrl: expect.stringMatching(/\/ui$/) });
      expect(kept.description).toContain(`state in ${path.join(dir, 'data')}`);
      const started = await openRuntime(state, 'acme');
      const where = (kept.connection as { address: string }).address;
      expect(events.slice(1)).toEqual([`check ${where}`, `runtime on ${where} with a database`]);
      await started.adapter.close();
      // Once the server is gone, a lab command says so in one line instead of starting the runtime.
      for (const s of [...stops].reverse()) if (s.what === ACME_SERVER.title) await s.stop();
      await expect(openRuntime(state, 'acme')).rejects.toThrow(
        /^the Acme server of the lab \(Acme at .+\) does not answer \(.*ECONNREFUSED.*\): restart the lab/,
      );
    } finally {
      for (const s of [...stops].reverse()) await s.stop().catch(() => undefined);
    }
  });
});
