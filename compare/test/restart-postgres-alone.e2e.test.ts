/**
 * Where no runtime has a server of its own (LangGraph alone), the hazard that restarts PostgreSQL
 * still gets a PostgreSQL of its own: the rows beside it, on the shared one, meet no outage.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { observedBy, type RunCompareResult } from '../src/run-compare.ts';
import { compareForTest } from './user-database.ts';
import { crashSuite } from '../src/suites/crash.ts';
import { productionSuite } from '../src/suites/production.ts';

let run: RunCompareResult;

beforeAll(async () => {
  run = await compareForTest(
    {
      suites: ['crash', 'production'],
      runtimes: ['langgraph'],
      variants: ['hardened'],
      crashPoints: ['after-model'],
      hazards: ['restart-postgres', 'retry-transient'],
    },
    { asUser: false, env: { ...process.env, DATABASE_URL: undefined } },
  );
}, 240_000);

describe('restarting PostgreSQL with no runtime server in the run', () => {
  it('happens on a PostgreSQL of its own, which the report names', () => {
    const infra = run.results.meta.infrastructure;
    expect(infra.restartHazards).toMatch(/^embedded PostgreSQL /);
    const shared = /embedded PostgreSQL (\S+)/.exec(infra.postgres)![1]!;
    expect(infra.restartHazards).not.toContain(shared);
  });

  it('leaves the rows on the shared one untouched while it runs', () => {
    const verdict = (id: string) => observedBy(run, productionSuite).find((h) => h.scenario.id === id)?.verdict;
    // Which of the two depends on how long the restart takes against the lease (the runtime's own note).
    expect(['rode-it-out', 'restart-needed']).toContain(verdict('restart-postgres/langgraph/hardened'));
    expect(verdict('retry-transient/langgraph/hardened')).toBe('recovered');
    expect(observedBy(run, crashSuite).map((o) => `${o.scenario.id} ${o.status}`)).toEqual(
      observedBy(run, crashSuite).map((o) => `${o.scenario.id} completed`),
    );
  });
});
