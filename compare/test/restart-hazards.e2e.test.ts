/**
 * In `pnpm compare` the hazards that restart a server run on servers of their own, beside the other
 * rows instead of alone at the end: PostgreSQL restarted twice under LangGraph's and Temporal's
 * runs, the Temporal server under Temporal's, while rows on the shared servers go on meeting no
 * outage. With the embedded PostgreSQL and a CLI dev server, as a newcomer runs it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { observedBy, type RunCompareResult } from '../src/run-compare.ts';
import { compareForTest } from './user-database.ts';
import { productionSuite } from '../src/suites/production.ts';

let run: RunCompareResult;

beforeAll(async () => {
  run = await compareForTest(
    {
      suites: ['production'],
      runtimes: ['langgraph', 'temporal'],
      variants: ['hardened'],
      hazards: ['restart-postgres', 'restart-server', 'retry-transient'],
    },
    {
      asUser: false,
      env: { ...process.env, DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined },
    },
  );
}, 240_000);

const row = (id: string) => observedBy(run, productionSuite).find((h) => h.scenario.id === id)!;

describe('the restart hazards, on servers of their own', () => {
  it('ride the restarts out where the runtime does, and skip a server the run keeps nothing in', () => {
    expect(
      Object.fromEntries(observedBy(run, productionSuite).map((h) => [h.scenario.id, h.verdict ?? h.status])),
    ).toEqual({
      'restart-postgres/langgraph/hardened': 'rode-it-out',
      'restart-postgres/temporal/hardened': 'rode-it-out',
      'restart-server/langgraph/hardened': 'skipped',
      'restart-server/temporal/hardened': 'rode-it-out',
      'retry-transient/langgraph/hardened': 'recovered',
      'retry-transient/temporal/hardened': 'recovered',
    });
    for (const id of ['restart-postgres/langgraph/hardened', 'restart-server/temporal/hardened'])
      expect(row(id).figures.restarts).toBe(2);
  });

  it('run beside rows on the shared servers, which meet no outage, and one at a time among themselves', () => {
    const restarts = observedBy(run, productionSuite).filter(
      (h) => h.status === 'ran' && /^restart-/.test(h.scenario.hazard),
    );
    const others = observedBy(run, productionSuite).filter((h) => h.scenario.hazard === 'retry-transient');
    const overlaps = (a: { startedAt: number; endedAt: number }, b: { startedAt: number; endedAt: number }) =>
      a.startedAt < b.endedAt && b.startedAt < a.endedAt;
    expect(restarts.some((r) => others.some((o) => overlaps(r, o)))).toBe(true);
    for (const a of restarts) for (const b of restarts) if (a !== b) expect(overlaps(a, b)).toBe(false);
  });

  it('the report names their servers, apart from the shared ones', () => {
    const infra = run.results.meta.infrastructure;
    expect(infra.restartHazards).toMatch(/^embedded PostgreSQL .*; dev server \(Temporal CLI\) 127\.0\.0\.1:\d+, /);
    const restartServer = /dev server \(Temporal CLI\) (\S+),/.exec(infra.restartHazards!)![1];
    expect(infra.servers.map((s) => s.description).join(' ')).not.toContain(restartServer);
  });
});
