import { describe, expect, it } from 'vitest';
import { FIXTURE_RUNTIMES } from './fixtures.ts';
import { crashCatalogue, selectScenarios } from './scenarios.ts';

const { langgraph: LG, temporal: TM } = FIXTURE_RUNTIMES;

describe('the crash catalogue', () => {
  it('every crash point in every configuration, a baseline per runtime and variant in its first configuration', () => {
    const all = crashCatalogue([LG, TM]);
    expect(all.filter((s) => s.crashPoint === null).map((s) => s.id)).toEqual([
      'langgraph/naive/async/baseline',
      'langgraph/hardened/-/baseline',
      'temporal/naive/-/baseline',
      'temporal/hardened/-/baseline',
    ]);
    expect(all.length).toBe(4 + 8 * (4 + 2));
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    const midModel = all.filter(
      (s) => s.crashPoint === 'mid-model' && s.runtime === 'langgraph' && s.variant === 'naive',
    );
    expect(midModel.map((s) => [s.durability, s.baselineId])).toEqual([
      ['async', 'langgraph/naive/async/baseline'],
      ['sync', 'langgraph/naive/async/baseline'],
      ['exit', 'langgraph/naive/async/baseline'],
    ]);
  });

  it('keeps the baselines a filtered selection needs', () => {
    const sel = selectScenarios(
      { runtimes: ['temporal'], variants: ['hardened'], crashPoints: ['after-deliver'] },
      crashCatalogue([LG, TM]),
    );
    expect(sel.map((s) => s.id)).toEqual(['temporal/hardened/-/baseline', 'temporal/hardened/-/after-deliver']);
  });
});
