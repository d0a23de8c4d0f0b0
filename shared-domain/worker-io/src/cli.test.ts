import { describe, expect, it } from 'vitest';
import { commaList, parseCli, UsageError, wholeNumber } from './cli.ts';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('wholeNumber', () => {
  it('takes a whole number in range, and nothing when the option was not given', () => {
    expect(wholeNumber('--runs', '12', { max: 100 })).toBe(12);
    expect(wholeNumber('--port', '0', { min: 0, max: 65_535 })).toBe(0);
    expect(wholeNumber('--runs', undefined, { max: 100 })).toBeUndefined();
  });

  it.each(['0', '-1', '101', '1.5', '1e2', '', ' ', 'ten', '0x10'])(
    'refuses "%s" in the option’s own words',
    (text) => {
      expect(refusal(() => wholeNumber('--runs', text, { max: 100 }))).toBe(
        `--runs must be a whole number from 1 to 100, got "${text}"`,
      );
    },
  );
});

describe('commaList', () => {
  const allowed = ['langgraph', 'temporal', 'plain'] as const;
  it('keeps the order given and drops repeats and blanks', () => {
    expect(commaList('--runtime', 'plain, langgraph,,plain', allowed)).toEqual(['plain', 'langgraph']);
    expect(commaList('--runtime', undefined, allowed)).toBeUndefined();
  });

  it('names every unknown item and what is known', () => {
    expect(refusal(() => commaList('--crash', 'after-modle,boundary,nope', ['boundary'], 'crash point'))).toBe(
      'unknown crash point "after-modle", "nope" (known: boundary)',
    );
  });

  it('refuses an empty list', () => {
    expect(refusal(() => commaList('--runtime', ' , ', allowed))).toBe(
      '--runtime needs at least one of: langgraph, temporal, plain',
    );
  });
});

describe('parseCli', () => {
  const spec = { usage: 'usage: x', options: { runs: { type: 'string' }, json: { type: 'boolean' } } } as const;
  it('hands a negative number to the option, for its own check to refuse', () => {
    expect(parseCli(spec, ['--runs', '-1', '--json']).values).toEqual({ runs: '-1', json: true });
  });

  it('still says a value is missing when the next word is an option', () => {
    expect(refusal(() => parseCli(spec, ['--runs', '--json']))).toMatch(/--runs/);
  });
});
