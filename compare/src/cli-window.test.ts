import { describe, expect, it } from 'vitest';
import { parseCompareArgs, UsageError } from './cli.ts';

describe('the window suite: --window-step and --delay', () => {
  it('takes the steps by name and the delays as rising milliseconds', () => {
    const o = parseCompareArgs(['--suite', 'window', '--window-step', 'start,model', '--delay', '0,1.5,20']);
    expect([o.suites, o.windowSteps, o.windowDelays]).toEqual([['window'], ['start', 'model'], [0, 1.5, 20]]);
    expect(parseCompareArgs([]).windowDelays).toBeUndefined();
  });

  it('refuses a delay that is not a number of milliseconds, out of range or out of order, in one line', () => {
    expect(() => parseCompareArgs(['--delay', '0,five'])).toThrow(
      /--delay takes milliseconds from 0 to 10000, got "five"/,
    );
    expect(() => parseCompareArgs(['--delay', '-1'])).toThrow(UsageError);
    expect(() => parseCompareArgs(['--delay', '20000'])).toThrow(UsageError);
    expect(() => parseCompareArgs(['--delay', '5,2'])).toThrow(/--delay must rise/);
    expect(() => parseCompareArgs(['--window-step', 'commit'])).toThrow(/start, model, note/);
  });
});
