import { describe, expect, it } from 'vitest';
import { distributionRepeats, VARYING_REPEATS } from './catalogue/crash-rules.ts';
import { FAKE_RUNTIMES } from './fixtures.ts';
import { jobsFor } from './matrix.ts';
import { productionCatalogue } from './production/catalogue.ts';
import { crashCatalogue } from './scenarios.ts';

describe('how often a cell runs to show its distribution (--full)', () => {
  const catalogue = crashCatalogue(Object.values(FAKE_RUNTIMES));
  const jobs = jobsFor(catalogue, distributionRepeats);
  const runs = (id: string) => jobs.filter((j) => j.scenario.id === id).length;

  it('a cell whose outcome depends on timing (a checkpointer at async durability, before the gate) runs several times', () => {
    expect(VARYING_REPEATS).toBeGreaterThanOrEqual(3);
    expect(runs('checkpointer/naive/async/after-model')).toBe(VARYING_REPEATS);
    expect(runs('checkpointer/naive/async/boundary')).toBe(VARYING_REPEATS);
  });

  it('so does a crash point a sibling races in every runtime (after-fetch)', () => {
    expect(runs('journal/hardened/-/after-fetch')).toBe(VARYING_REPEATS);
    expect(runs('checkpointer/naive/sync/after-fetch')).toBe(VARYING_REPEATS);
  });

  it('every other cell, and every baseline, runs once', () => {
    expect(runs('checkpointer/naive/sync/after-model')).toBe(1);
    expect(runs('checkpointer/naive/async/awaiting-approval')).toBe(1);
    expect(runs('journal/hardened/-/after-model')).toBe(1);
    for (const s of catalogue.filter((c) => c.crashPoint === null)) expect(runs(s.id)).toBe(1);
  });

  it('--repeat N runs every cell N times, baselines first', () => {
    const all = jobsFor(catalogue, 2);
    expect(all).toHaveLength(catalogue.length * 2);
    expect(all.findIndex((j) => j.scenario.crashPoint !== null)).toBe(
      catalogue.filter((c) => c.crashPoint === null).length * 2,
    );
  });

  it('a hazard row whose runtime lists other verdicts a race decides (alsoSeen) runs several times; every other once', () => {
    const hazards = productionCatalogue(Object.values(FAKE_RUNTIMES));
    const hazardJobs = jobsFor(hazards, distributionRepeats);
    const hazardRuns = (id: string) => hazardJobs.filter((j) => j.scenario.id === id).length;
    expect(hazardRuns('restart-server/journal/naive')).toBe(VARYING_REPEATS);
    expect(hazardJobs.filter((j) => j.scenario.id === 'restart-server/journal/naive').map((j) => j.repetition)).toEqual(
      [0, 1, 2],
    );
    expect(hazardRuns('zombie/journal/naive')).toBe(1);
    expect(hazardRuns('restart-server/journal/hardened')).toBe(1);
    expect(hazardRuns('two-writers/checkpointer/naive')).toBe(1);
  });
});
