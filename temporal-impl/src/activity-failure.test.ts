import { ApplicationFailure } from '@temporalio/common';
import { PermanentError, retryRuleFor, TransientError } from '@vendor-review/pipeline';
import { describe, expect, it } from 'vitest';
import { toActivityFailure } from './activity-failure.ts';

const page = retryRuleFor('page');

describe('toActivityFailure', () => {
  it('naive: the error leaves as thrown, so the default policy retries even a permanent one', () => {
    const err = new PermanentError('HTTP 422', 'http-422', 422);
    expect(toActivityFailure(err, 'naive', { ownErrors: 1, rule: page })).toBe(err);
  });

  it('hardened: a PermanentError becomes a non-retryable failure carrying the own-error count', () => {
    const failure = toActivityFailure(new PermanentError('HTTP 404 on /vendors/x', 'http-404', 404), 'hardened', {
      ownErrors: 1,
      rule: page,
    }) as ApplicationFailure;
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'PermanentError', nonRetryable: true, message: 'HTTP 404 on /vendors/x' });
    expect(failure.details).toEqual([{ attempt: 1, code: 'http-404', status: 404 }]);
  });

  it('hardened: a TransientError below the cap of own errors stays retryable, and at the cap it is the last', () => {
    const err = new TransientError('HTTP 503', 'http-503', 503);
    const below = toActivityFailure(err, 'hardened', { ownErrors: page.maxAttempts - 1, rule: page });
    expect(below).toMatchObject({ type: 'TransientError', nonRetryable: false });
    expect((below as ApplicationFailure).details).toEqual([
      { attempt: page.maxAttempts - 1, code: 'http-503', status: 503 },
    ]);
    const at = toActivityFailure(err, 'hardened', { ownErrors: page.maxAttempts, rule: page });
    expect(at).toMatchObject({ type: 'TransientError', nonRetryable: true, details: [{ attempt: page.maxAttempts }] });
  });

  it('hardened: an unknown error is not retried (a bug does not fix itself): straight to the dead letter', () => {
    const failure = toActivityFailure(new TypeError('x is undefined'), 'hardened', {
      ownErrors: 1,
      rule: page,
    }) as ApplicationFailure;
    expect(failure).toMatchObject({ type: 'TypeError', nonRetryable: true, details: [{ attempt: 1 }] });
  });
});
