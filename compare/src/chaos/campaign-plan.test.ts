import { describe, expect, it } from 'vitest';
import {
  baselineAdmissions,
  baselineVendors,
  plannedRuns,
  reviewAdmissions,
  reviewIndexes,
  strikeSchedule,
} from './campaign-plan.ts';
import { chaosRunId, DEFAULT_SCHEDULE, runPlan, strikes, type ScheduleOptions, type Strike } from './schedule.ts';

const schedule: ScheduleOptions = { ...DEFAULT_SCHEDULE, seed: 'plan1', vendors: ['acme-analytics', 'globex'] };
const campaign = {
  seed: 'plan1',
  runs: 5,
  runtimes: ['langgraph', 'temporal'],
  variants: ['naive', 'hardened'] as const,
};
const replayStrike: Strike = { seq: 3, kind: 'kill', at: 1_200, pick: 7 };
const replay = { indexes: [4], strikes: [replayStrike], runId: 'chplan1-lg-naive-004' };

describe('the plan of a campaign, from its options alone', () => {
  it('reviews every index up to --runs, or only the one a replay names', () => {
    expect(reviewIndexes(campaign)).toEqual([0, 1, 2, 3, 4]);
    expect(reviewIndexes({ ...campaign, only: replay })).toEqual([4]);
  });

  it('one baseline per vendor the reviews ask about, in order of first use', () => {
    expect(baselineVendors({ ...campaign, schedule })).toEqual(['acme-analytics', 'globex']);
    expect(baselineVendors({ ...campaign, runs: 1, schedule })).toEqual(['acme-analytics']);
    expect(baselineVendors({ ...campaign, schedule, only: replay })).toEqual([runPlan(schedule, 4).vendor]);
  });

  it('counts baselines and reviews of every pool for the progress footer', () => {
    // 2 runtimes × 2 variants, each 5 reviews and 2 baselines.
    expect(plannedRuns({ ...campaign, schedule })).toBe(4 * (5 + 2));
    expect(plannedRuns({ ...campaign, schedule, only: replay })).toBe(4 * (1 + 1));
  });

  it("strikes on the seed's schedule, or under the strikes a replayed run met", () => {
    const drawn = strikeSchedule({ schedule });
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn).toEqual(strikes(schedule, 6 * 3600_000));
    expect(strikeSchedule({ schedule, only: replay })).toEqual([replayStrike]);
  });

  it('baselines: uncrashed, without faults or a held approval, named b0, b1, …', () => {
    const b = baselineAdmissions({ ...campaign, schedule }, 'LG', 'naive');
    expect(b.map((a) => [a.label, a.runId, a.plan.vendor, a.baseline])).toEqual([
      ['b0', chaosRunId('plan1', 'LG', 'naive', 'b0'), 'acme-analytics', true],
      ['b1', chaosRunId('plan1', 'LG', 'naive', 'b1'), 'globex', true],
    ]);
    for (const a of b)
      expect(a.plan).toMatchObject({ index: -1, crash: null, stopMs: null, faults: [], holdApproval: false });
  });

  it('reviews: run N of every pool under the same plan from the seed, named by its number', () => {
    const naive = reviewAdmissions({ ...campaign, schedule }, 'LG', 'naive');
    const hardened = reviewAdmissions({ ...campaign, schedule }, 'TM', 'hardened');
    expect(naive.map((a) => a.label)).toEqual(['000', '001', '002', '003', '004']);
    expect(naive.map((a) => a.plan)).toEqual(hardened.map((a) => a.plan));
    expect(naive[2]).toEqual({
      plan: runPlan(schedule, 2),
      runId: chaosRunId('plan1', 'LG', 'naive', 2),
      label: '002',
      baseline: false,
    });
    expect(reviewAdmissions({ ...campaign, schedule, only: replay }, 'LG', 'naive').map((a) => a.runId)).toEqual([
      replay.runId,
    ]);
  });
});
