import { ApplicationFailure } from '@temporalio/common';
import { PermanentError, TransientError } from '@vendor-review/domain';
import { describe, expect, it } from 'vitest';
import { toActivityFailure } from './failures.ts';

describe('toActivityFailure', () => {
  it('naive: the error leaves as thrown, so the default policy retries even a permanent one', () => {
    const err = new PermanentError('HTTP 422', 'http-422', 422);
    expect(toActivityFailure(err, 'naive', 1)).toBe(err);
  });

  it('hardened: a PermanentError becomes a non-retryable failure carrying its attempt number', () => {
    const failure = toActivityFailure(
      new PermanentError('HTTP 404 on /vendors/x', 'http-404', 404),
      'hardened',
      1,
    ) as ApplicationFailure;
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'PermanentError', nonRetryable: true, message: 'HTTP 404 on /vendors/x' });
    expect(failure.details).toEqual([{ attempt: 1, code: 'http-404', status: 404 }]);
  });

  it('hardened: a TransientError stays retryable under the capped policy', () => {
    const failure = toActivityFailure(
      new TransientError('HTTP 503', 'http-503', 503),
      'hardened',
      3,
    ) as ApplicationFailure;
    expect(failure).toMatchObject({ type: 'TransientError', nonRetryable: false });
    expect(failure.details).toEqual([{ attempt: 3, code: 'http-503', status: 503 }]);
  });

  it('hardened: an unknown error is retryable (a bug gets its capped retries, then the dead letter)', () => {
    const failure = toActivityFailure(new TypeError('x is undefined'), 'hardened', 2) as ApplicationFailure;
    expect(failure).toMatchObject({ type: 'TypeError', nonRetryable: false, details: [{ attempt: 2 }] });
  });
});
