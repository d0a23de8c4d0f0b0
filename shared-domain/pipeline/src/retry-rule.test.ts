import { describe, expect, it } from 'vitest';
import { PermanentError, TransientError } from './errors.ts';
import { InvalidRequestError } from './request.ts';
import { backoffMs, givesUp, isRetriedBy, RETRY_STEP_KINDS, retryRuleFor, stepKindOf } from './retry-rule.ts';

describe('the hardened retry rule', () => {
  const transient = new TransientError('HTTP 503', 'http-503', 503);

  it('retries a TransientError only: permanent, invalid and unknown errors go to the dead letter at once', () => {
    for (const kind of RETRY_STEP_KINDS) {
      const rule = retryRuleFor(kind);
      expect(isRetriedBy(rule, transient)).toBe(true);
      expect(isRetriedBy(rule, new PermanentError('HTTP 422', 'http-422', 422))).toBe(false);
      expect(isRetriedBy(rule, new InvalidRequestError([]))).toBe(false);
      expect(isRetriedBy(rule, new TypeError('x is undefined'))).toBe(false);
      expect(givesUp(rule, new TypeError('x'), 1)).toBe(true);
    }
  });

  it('gives up at the cap of own errors, not before', () => {
    const rule = retryRuleFor('model');
    expect(givesUp(rule, transient, rule.maxAttempts - 1)).toBe(false);
    expect(givesUp(rule, transient, rule.maxAttempts)).toBe(true);
  });

  it('backs off by the factor, up to the maximum', () => {
    const rule = retryRuleFor('page');
    const pauses = [1, 2, 3, 4, 5, 6].map((n) => backoffMs(rule, n));
    expect(pauses[0]).toBe(rule.backoff.initialMs);
    expect(pauses[1]).toBe(rule.backoff.initialMs * rule.backoff.factor);
    expect(Math.max(...pauses)).toBe(rule.backoff.maxMs);
  });

  it('knows the kind of every working step and stage; a step inside a stage takes the stage’s (it is retried as a whole)', () => {
    expect(stepKindOf('FETCH')).toBe('page');
    expect(stepKindOf('EXTRACT')).toBe('model');
    expect(stepKindOf('SAVE_PROGRESS')).toBe('effect');
    expect(stepKindOf('SAVE_PROGRESS (in REQUIREMENT)')).toBe('model');
    expect(stepKindOf('REVIEW')).toBe('model');
    expect(() => stepKindOf('NOPE')).toThrow(/no retry kind/);
  });
});
