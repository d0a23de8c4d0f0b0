import { PermanentError, RETRY_RULES, TransientError } from '@vendor-review/pipeline';
import { describe, expect, it } from 'vitest';
import { retryOwnErrors } from './step-errors.ts';

const rule = { ...RETRY_RULES.page, backoff: { initialMs: 1, factor: 1, maxMs: 1 } };
class GaveUp extends Error {}

/** A durable count as a table keeps it, and a step that fails `failures` times before it answers. */
function fixture(failures: (n: number) => Error | null) {
  let counted = 0;
  let calls = 0;
  return {
    calls: () => calls,
    counted: () => counted,
    run: () =>
      retryOwnErrors({
        rule,
        call: async () => {
          const err = failures(++calls);
          if (err) throw err;
          return 'ok';
        },
        count: async () => ++counted,
        gaveUp: (n, error) => new GaveUp(`${n}: ${error}`),
      }),
  };
}

describe('retryOwnErrors', () => {
  it('rides out transient errors under the cap and counts each', async () => {
    const f = fixture((n) => (n <= rule.maxAttempts - 1 ? new TransientError('503', 'http-503') : null));
    await expect(f.run()).resolves.toBe('ok');
    expect(f.counted()).toBe(rule.maxAttempts - 1);
  });

  it('gives up at the cap of its own errors', async () => {
    const f = fixture(() => new TransientError('503', 'http-503'));
    await expect(f.run()).rejects.toBeInstanceOf(GaveUp);
    expect(f.calls()).toBe(rule.maxAttempts);
  });

  it('gives up on a permanent error at once', async () => {
    const f = fixture(() => new PermanentError('422', 'http-422'));
    await expect(f.run()).rejects.toThrow(/^1: PermanentError: 422/);
  });

  it('goes on, uncounted, while the count cannot be written', async () => {
    let lost = 2;
    let calls = 0;
    const result = retryOwnErrors({
      rule,
      call: async () => {
        if (++calls <= 3) throw new TransientError('503', 'http-503');
        return 'ok';
      },
      count: async () => {
        if (lost-- > 0) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
        return 1;
      },
      gaveUp: () => new GaveUp(),
    });
    await expect(result).resolves.toBe('ok');
  });
});
