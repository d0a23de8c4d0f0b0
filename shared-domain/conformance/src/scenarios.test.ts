import { describe, expect, it } from 'vitest';
import { FAKE_RUNTIMES } from './fixtures.ts';
import { crashCatalogue, LONG_STEP_MS, selectScenarios } from './scenarios.ts';
import { STOP_GRACE_MS } from '@vendor-review/instrument';
import { expectationFor, CRASH_RULES } from './catalogue/crash-rules.ts';

const { checkpointer: CP, journal: JN } = FAKE_RUNTIMES;

describe('the crash catalogue', () => {
  it('every crash point in every configuration, a baseline per runtime and variant in its first configuration', () => {
    const all = crashCatalogue([CP, JN]);
    expect(all.filter((s) => s.crashPoint === null).map((s) => s.id)).toEqual([
      'checkpointer/naive/async/baseline',
      'checkpointer/hardened/-/baseline',
      'journal/naive/-/baseline',
      'journal/hardened/-/baseline',
    ]);
    // Nine points in each of the checkpointer's four configurations; the journal's commit is not ours to reach.
    expect(all.length).toBe(4 + 9 * 4 + 8 * 2);
    expect(all.some((s) => s.runtime === 'journal' && s.crashPoint === 'mid-commit')).toBe(false);
    expect(all.some((s) => s.crashPoint === 'first-step' || s.crashPoint === 'before-deliver')).toBe(false);
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    const midModel = all.filter(
      (s) => s.crashPoint === 'mid-model' && s.runtime === 'checkpointer' && s.variant === 'naive',
    );
    expect(midModel.map((s) => [s.durability, s.baselineId])).toEqual([
      ['async', 'checkpointer/naive/async/baseline'],
      ['sync', 'checkpointer/naive/async/baseline'],
      ['exit', 'checkpointer/naive/async/baseline'],
    ]);
  });

  it('keeps the baselines a filtered selection needs', () => {
    const sel = selectScenarios(
      { runtimes: ['journal'], variants: ['hardened'], crashPoints: ['after-deliver'] },
      crashCatalogue([CP, JN]),
    );
    expect(sel.map((s) => s.id)).toEqual(['journal/hardened/-/baseline', 'journal/hardened/-/after-deliver']);
  });

  it("kill alone by default; term adds every point in each variant's baseline configuration and a long step, ids of kills unchanged", () => {
    const kills = crashCatalogue([CP, JN]);
    expect(crashCatalogue([CP, JN], { stops: ['kill'] })).toEqual(kills);
    const both = crashCatalogue([CP, JN], { stops: ['kill', 'term'] });
    const terms = both.filter((s) => s.stop === 'term');
    expect(both.filter((s) => s.stop !== 'term')).toEqual(kills);
    // 9 points × 2 variants for the checkpointer, 8 for the journal, plus one long-step row per runtime and variant
    expect(terms.length).toBe(9 * 2 + 8 * 2 + 4);
    expect(new Set(both.map((s) => s.id)).size).toBe(both.length);
    expect(terms.filter((s) => s.runtime === 'checkpointer' && s.crashPoint === 'mid-model').map((s) => s.id)).toEqual([
      'checkpointer/naive/async/mid-model/term',
      'checkpointer/naive/async/mid-model/term-long-step',
      'checkpointer/hardened/-/mid-model/term',
      'checkpointer/hardened/-/mid-model/term-long-step',
    ]);
    for (const s of terms) expect(s.graceMs).toBe(STOP_GRACE_MS);
    const long = terms.find((s) => s.id === 'journal/hardened/-/mid-model/term-long-step')!;
    expect(long.faults).toEqual([{ route: 'model', kind: 'slow', step: 'EXTRACT', times: 1, delayMs: LONG_STEP_MS }]);
    expect(LONG_STEP_MS).toBeGreaterThan(STOP_GRACE_MS);
    expect(terms.find((s) => s.id === 'journal/hardened/-/mid-model/term')!.faults).toEqual([]);
  });

  it('selects each variant in its baseline configuration only, when asked', () => {
    const all = crashCatalogue([CP, JN]);
    const chosen = selectScenarios({ baselineConfigurations: true }, all);
    const configs = new Set(chosen.map((s) => `${s.runtime}/${s.variant}/${s.durability ?? '-'}`));
    // The checkpointer's naive variant in its default durability only; the hardened variants and the journal as they are.
    expect([...configs].sort()).toEqual([
      `${CP.name}/hardened/-`,
      `${CP.name}/naive/${CP.configurations[0]!.durability}`,
      `${JN.name}/hardened/-`,
      `${JN.name}/naive/-`,
    ]);
    expect(chosen.every((s) => s.baselineId === all.find((b) => b.id === s.baselineId)?.id)).toBe(true);
    expect(chosen.length).toBeLessThan(all.length);
  });

  it('selects by how the worker leaves, keeping the baselines', () => {
    const sel = selectScenarios(
      { runtimes: ['journal'], variants: ['naive'], crashPoints: ['after-deliver'], stops: ['term'] },
      crashCatalogue([CP, JN], { stops: ['kill', 'term'] }),
    );
    expect(sel.map((s) => s.id)).toEqual(['journal/naive/-/baseline', 'journal/naive/-/after-deliver/term']);
  });
});

describe('what a worker asked to stop must show', () => {
  const cell = { durability: null, deviations: [] };
  it('hardened drains: nothing repeats and the worker leaves by itself; naive is the kill', () => {
    for (const point of ['after-model', 'after-deliver', 'awaiting-approval'] as const) {
      expect(expectationFor(point, { ...cell, variant: 'hardened', stop: 'term' }).expected).toEqual({
        kind: 'rule',
        outcome: { repeats: {}, duplicateEffect: false, leaves: 'itself' },
      });
      expect(expectationFor(point, { ...cell, variant: 'naive', stop: 'term' }).expected).toEqual({
        kind: 'rule',
        outcome: CRASH_RULES[point].naive,
      });
    }
  });

  it('a step longer than the grace is killed at its end and runs again, as after a kill', () => {
    expect(
      expectationFor('mid-model', { ...cell, variant: 'hardened', stop: 'term', stepOutlastsGrace: true }).expected,
    ).toEqual({ kind: 'rule', outcome: { ...CRASH_RULES['mid-model'].hardened, leaves: 'killed' } });
  });

  it('a deviation names the stop it is about; one that names none applies to both', () => {
    const deviations = [
      { stop: 'term' as const, variant: 'naive' as const, expected: { kind: 'lost' as const }, why: 'term only' },
      { points: ['boundary' as const], expected: { kind: 'varies' as const }, why: 'both' },
    ];
    expect(expectationFor('after-model', { ...cell, deviations, variant: 'naive', stop: 'term' }).why).toBe(
      'term only',
    );
    expect(expectationFor('after-model', { ...cell, deviations, variant: 'naive' }).why).toBeNull();
    expect(expectationFor('boundary', { ...cell, deviations, variant: 'hardened', stop: 'term' }).why).toBe('both');
    expect(expectationFor('boundary', { ...cell, deviations, variant: 'hardened' }).why).toBe('both');
  });
});
