/**
 * The restart rows that cannot run say why, before anything starts: a server the harness does not
 * own, a dev server that would lose everything, a runtime that keeps nothing on that server.
 */
import { describe, expect, it } from 'vitest';
import type { RuntimeAdapter } from '@vendor-review/pipeline';
import { FIXTURE_RUNTIMES } from '../fixtures.ts';
import { runHazard } from './catalogue.ts';
import type { HazardEnv, HazardInfra, HazardScenario } from './types.ts';

const restart = async () => ({ downMs: 1 });

/** An adapter that must not be asked to run anything: every row here ends before a run exists. */
function adapter(servers: ('postgres' | 'temporal')[]): RuntimeAdapter {
  const never = () => {
    throw new Error('a skipped row started something');
  };
  return {
    ...FIXTURE_RUNTIMES.temporal,
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

const row = (hazard: 'restart-postgres' | 'restart-temporal'): HazardScenario => ({
  id: `${hazard}/temporal/hardened`,
  hazard,
  runtime: 'temporal',
  variant: 'hardened',
  deviations: [],
});

async function noteOf(
  hazard: 'restart-postgres' | 'restart-temporal',
  servers: ('postgres' | 'temporal')[],
  infra?: HazardInfra,
) {
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

  it('a Temporal server at TEMPORAL_ADDRESS: the same', async () => {
    expect(await noteOf('restart-temporal', ['temporal'], { temporal: { kind: 'external' } })).toMatch(
      /^the Temporal server is not the harness's own \(TEMPORAL_ADDRESS, kind external\)/,
    );
  });

  it('our dev server without a database file: a restart would lose every run', async () => {
    expect(await noteOf('restart-temporal', ['temporal'], { temporal: { kind: 'cli', restart } })).toMatch(
      /keeps its state in memory: a restart would lose every run/,
    );
  });

  it('no handle at all, or a runtime that keeps nothing on that server', async () => {
    expect(await noteOf('restart-postgres', ['postgres'])).toMatch(/given no handle on PostgreSQL/);
    expect(await noteOf('restart-postgres', ['temporal'], { postgres: { kind: 'embedded', restart } })).toMatch(
      /keep nothing in PostgreSQL/,
    );
  });
});
