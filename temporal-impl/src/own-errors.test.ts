import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { PermanentError, retryRuleFor, TransientError } from '@vendor-review/pipeline';
import { describe, expect, it } from 'vitest';
import type { Store } from './postgres-store.ts';
import { failStep } from './own-errors.ts';

const model = retryRuleFor('model');
const PAST_THE_CAP = model.maxAttempts + 3;
const http503 = () => new TransientError('model call -> HTTP 503', 'http-503', 503);

/** A store whose count of own errors is `count` (or whose write fails with `fails`); only the count is used here. */
function storeCounting(o: { count?: number; fails?: Error }) {
  const written: { runtimeRunId: string; activityId: string; error: string }[] = [];
  const store = {
    recordStepError: async (row: (typeof written)[number]) => {
      if (o.fails) throw o.fails;
      written.push(row);
      return o.count ?? written.length;
    },
  } as unknown as Store;
  return { store, written };
}

/** failStep as the activity calls it, in an activity context whose server attempt and locality are given. */
async function fail(
  err: unknown,
  store: Store | undefined,
  info: { attempt: number; isLocal?: boolean },
): Promise<ApplicationFailure> {
  const env = new MockActivityEnvironment({
    ...info,
    activityId: 'EXTRACT:soc2',
    workflowExecution: { workflowId: 'vendor-review/run-1', runId: 'run-1' },
  });
  const failure = await env.run(() => failStep(err, { variant: 'hardened', kind: 'model', store }));
  return failure as ApplicationFailure;
}

describe('failStep (hardened)', () => {
  it('counts in the store, whatever the server’s attempt number says', async () => {
    const { store, written } = storeCounting({ count: 2 });
    const failure = await fail(http503(), store, { attempt: PAST_THE_CAP });
    expect(written).toEqual([
      { runtimeRunId: 'run-1', activityId: 'EXTRACT:soc2', error: 'TransientError: model call -> HTTP 503' },
    ]);
    expect(failure).toMatchObject({ type: 'TransientError', nonRetryable: false, details: [{ attempt: 2 }] });
  });

  it('the store unreachable: a retryable store error, no count, however many attempts the server has made', async () => {
    const { store } = storeCounting({ fails: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
    const failure = await fail(http503(), store, { attempt: PAST_THE_CAP });
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'TransientError', nonRetryable: false });
    expect(failure.details ?? []).toEqual([]);
    expect(failure.message).toMatch(/not counted.*ECONNREFUSED.*HTTP 503/);
  });

  it('the store unreachable under a permanent error: tried again once the store is back, not dead-lettered uncounted', async () => {
    const { store } = storeCounting({ fails: new Error('Connection terminated unexpectedly') });
    const failure = await fail(new PermanentError('HTTP 422', 'http-422', 422), store, { attempt: 1 });
    expect(failure).toMatchObject({ type: 'TransientError', nonRetryable: false });
  });

  it('a local activity counts in the store too: below the cap it is retried, at the cap it is the last', async () => {
    const below = await fail(http503(), storeCounting({ count: 1 }).store, { attempt: PAST_THE_CAP, isLocal: true });
    expect(below).toMatchObject({ nonRetryable: false, details: [{ attempt: 1 }] });
    const at = await fail(http503(), storeCounting({ count: model.maxAttempts }).store, { attempt: 1, isLocal: true });
    expect(at).toMatchObject({ nonRetryable: true, details: [{ attempt: model.maxAttempts }] });
  });

  it('no store at all: a permanent error saying PostgreSQL is needed, never the server’s attempt number', async () => {
    const failure = await fail(http503(), undefined, { attempt: PAST_THE_CAP });
    expect(failure).toMatchObject({ type: 'PermanentError', nonRetryable: true, details: [{ attempt: 0 }] });
    expect(failure.message).toMatch(/DATABASE_URL/);
  });
});
