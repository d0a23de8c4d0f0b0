import { describe, expect, it } from 'vitest';
import { baselineObservation, crashedObservation, entries, FAKE_RUNTIMES, PIPELINE } from '../fixtures.ts';
import { crashCatalogue } from '../scenarios.ts';
import { granularityCatalogue } from './catalogue.ts';
import { callTimes, durableRecordCount, measureGranularityCell } from './measure.ts';

const { checkpointer: CP, journal: JN } = FAKE_RUNTIMES;

describe('the granularity catalogue', () => {
  it('sweeps every granularity of each runtime, uncrashed first, crashing early and late in the research', () => {
    const all = granularityCatalogue([CP, JN], { requirements: 3 });
    expect(all.filter((s) => s.crash === null).map((s) => s.id)).toEqual([
      'checkpointer/hardened/coarse/uncrashed',
      'checkpointer/hardened/per-requirement/uncrashed',
      'checkpointer/hardened/fine/uncrashed',
      'journal/hardened/coarse/uncrashed',
      'journal/hardened/per-requirement/uncrashed',
      'journal/hardened/fine/uncrashed',
    ]);
    expect(all).toHaveLength(18);
    const late = all.find((s) => s.id === 'journal/hardened/coarse/late')!;
    expect([late.crashPoint, late.crashOccurrence, late.baselineId, late.approveAtStart]).toEqual([
      'after-progress',
      3,
      'journal/hardened/coarse/uncrashed',
      true,
    ]);
    expect(all.find((s) => s.id === 'checkpointer/hardened/fine/early')!.crashPoint).toBe('after-model');
  });

  it('a naive checkpointer sweeps at sync durability, so every boundary is paid on the way', () => {
    const naive = granularityCatalogue([CP], { requirements: 2, variants: ['naive'], crashes: [] });
    expect(naive.map((s) => [s.granularity, s.durability])).toEqual([
      ['coarse', 'sync'],
      ['per-requirement', 'sync'],
      ['fine', 'sync'],
    ]);
  });

  it('leaves the crash catalogue as it was: the granularity configurations add no crash cells', () => {
    const fineOnly = (rt: typeof CP) => ({ ...rt, configurations: rt.configurations.filter((c) => !c.granularity) });
    expect(crashCatalogue([CP, JN]).map((s) => s.id)).toEqual(
      crashCatalogue([fineOnly(CP), fineOnly(JN)]).map((s) => s.id),
    );
  });
});

describe('the granularity figures', () => {
  it('merges overlapping calls: the world was busy for the union, the rest is overhead', () => {
    const ledger = entries(PIPELINE.slice(0, 3).map((op) => ({ ...op, worker: 'A' })));
    // 3 calls of 40 ms at 0, 100, 200 ms; then one overlapping the last.
    const overlapping = [...ledger, { ...ledger[2]!, seq: 9, at: ledger[2]!.at + 20, durationMs: 40 }];
    expect(callTimes(overlapping)).toEqual({ wallMs: 260, worldMs: 40 + 40 + 60 });
  });

  it('an uncrashed cell has its cost, a crashed one what it repeated, from the ledger and the record', () => {
    const base = baselineObservation('journal', 'hardened');
    const crashed = crashedObservation({
      runtime: 'journal',
      variant: 'hardened',
      crashPoint: 'after-progress',
      crashAfter: 10,
      resumeFrom: 0,
    });
    const cost = measureGranularityCell(base, null);
    expect(cost.repeatedModelCalls).toBeNull();
    expect(cost.durableRecords).toBe(durableRecordCount(base.durableFinal));
    expect(cost.durableRecords).toBe(30);
    expect(cost.overheadMs).toBe(cost.wallMs! - cost.worldMs!);
    expect(cost.overheadMs).toBeGreaterThan(0);
    const late = measureGranularityCell(crashed, base);
    // B re-ran the pipeline from the start: both EXTRACT calls again, the draft once (A never got there).
    expect(late.repeatedModelCalls).toBe(2);
    expect(late.extraCostUsd).toBeCloseTo(0.0021 + 0.0018, 6);
    expect(late.overheadMs).toBeNull();
  });
});
