import { describe, expect, it } from 'vitest';
import { parseCompareArgs, UsageError } from './cli.ts';

describe('--stop: how worker A leaves at the crash point', () => {
  it('is left out by default (kill), and takes kill, term or both', () => {
    expect(parseCompareArgs([]).stops).toBeUndefined();
    expect(parseCompareArgs(['--stop', 'term']).stops).toEqual(['term']);
    expect(parseCompareArgs(['--stop', 'kill, term']).stops).toEqual(['kill', 'term']);
  });

  it('refuses a way of leaving it does not know, in one line naming the ones it does', () => {
    expect(() => parseCompareArgs(['--stop', 'pause'])).toThrow(UsageError);
    expect(() => parseCompareArgs(['--stop', 'pause'])).toThrow(/kill, term/);
  });
});

describe('--full: everything the default leaves out', () => {
  it('adds every suite and both ways of leaving; the default runs crash and production, kills only', () => {
    const d = parseCompareArgs([]);
    expect([d.suites, d.stops, d.full]).toEqual([['crash', 'production'], undefined, undefined]);
    const f = parseCompareArgs(['--full']);
    expect([f.suites, f.stops, f.full]).toEqual([
      ['crash', 'production', 'granularity', 'window'],
      ['kill', 'term'],
      true,
    ]);
  });

  it('leaves what is named explicitly as it is named', () => {
    const f = parseCompareArgs(['--full', '--suite', 'crash', '--stop', 'kill']);
    expect([f.suites, f.stops]).toEqual([['crash'], ['kill']]);
  });
});
