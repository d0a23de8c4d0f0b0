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
