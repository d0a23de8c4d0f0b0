/**
 * The restart rows that cannot run say why, before anything starts: a server the harness does not
 * own, a dev server that would lose everything, a runtime that keeps nothing on that server.
 */
import { describe, expect, it } from 'vitest';
import type { RuntimeAdapter } from '../adapter.ts';
import { FAKE_RUNTIMES } from '../fixtures.ts';
import { runHazard } from './catalogue.ts';
import type { StartedServer } from '../servers.ts';
import type { HazardEnv, HazardInfra, HazardScenario } from './types.ts';

const restart = async () => ({ downMs: 1 });

/** An adapter that must not be asked to run anything: every row here ends before a run exists. */
function adapter(servers: string[]): RuntimeAdapter {
  const never = () => {
    throw new Error('a skipped row started something');
  };
  return {
    ...FAKE_RUNTIMES.journal,
    workerExitsWhenDone: false,
    isRetryableExit: () => false,
    startRun: never,
    workerSpec: never,
    status: never,
    inspect: never,
    approve: never,
    durableRecord: never,
    close: async () => undefined,
    drills: { servers: () => servers, explain: async () => null },
  };
}

type RestartHazard = 'restart-postgres' | 'restart-server';

const row = (hazard: RestartHazard): HazardScenario => ({
  id: `${hazard}/acme/hardened`,
  hazard,
  runtime: 'acme',
  variant: 'hardened',
  deviations: [],
});

/** A server of the runtime's own, as its module's spec would have started it. */
function ownServer(o: Partial<StartedServer>): StartedServer {
  return {
    connection: {},
    description: 'the acme server at 127.0.0.1:1',
    version: null,
    uiUrl: null,
    owned: false,
    forgetsOnRestart: null,
    pid: () => null,
    stop: async () => undefined,
    ...o,
  };
}

async function noteOf(hazard: RestartHazard, servers: string[], infra?: HazardInfra) {
  const env: HazardEnv = {
    adapter: adapter(servers),
    worldUrl: 'http://127.0.0.1:1',
    request: {} as never,
    boundMs: 1_000,
    ...(infra ? { infra } : {}),
  };
  const obs = await runHazard(row(hazard), env);
  expect(obs.status).toBe('skipped');
  return obs.note;
}

describe('restart rows that cannot run', () => {
  it('a PostgreSQL from DATABASE_URL: it cannot restart what it does not own', async () => {
    expect(await noteOf('restart-postgres', ['postgres'], { postgres: { kind: 'external' } })).toBe(
      "PostgreSQL is not the harness's own (DATABASE_URL, kind external): it cannot restart what it does not own",
    );
  });

  it("the runtime's server, the user's own: the same", async () => {
    expect(await noteOf('restart-server', ['postgres', 'acme'], { servers: { acme: ownServer({}) } })).toBe(
      "the acme server at 127.0.0.1:1 is not the harness's own: it cannot restart what it does not own",
    );
  });

  it('its server of our own that keeps its state in memory: a restart would lose every run', async () => {
    const inMemory = ownServer({ owned: true, restart, forgetsOnRestart: 'the acme server keeps its state in memory' });
    expect(await noteOf('restart-server', ['acme'], { servers: { acme: inMemory } })).toBe(
      'the acme server keeps its state in memory: a restart would lose every run (the memory hazard), not ride one out',
    );
  });

  it('no handle at all, or a runtime that keeps nothing on that server', async () => {
    expect(await noteOf('restart-postgres', ['postgres'])).toMatch(/given no handle on PostgreSQL/);
    expect(await noteOf('restart-postgres', ['acme'], { postgres: { kind: 'embedded', restart } })).toMatch(
      /keep nothing in PostgreSQL/,
    );
    expect(await noteOf('restart-server', ['postgres'], { postgres: { kind: 'embedded', restart } })).toMatch(
      /keep nothing in a server of their own/,
    );
    expect(await noteOf('restart-server', ['acme'], { servers: {} })).toMatch(
      /given no handle on the runtime's server/,
    );
  });
});
