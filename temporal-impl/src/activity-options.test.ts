import { describe, expect, it } from 'vitest';
import { compileRetryPolicy } from '@temporalio/common';
import { retryRuleFor } from '@vendor-review/pipeline';
import { activityOptions, HEARTBEAT_TIMEOUT, localVerifyOptions } from './activity-options.ts';

describe('activityOptions', () => {
  it('naive sets no retry policy at all: the SDK default (unlimited attempts) applies', () => {
    const o = activityOptions('naive', 'page', 'FETCH:soc2:0');
    expect(o.retry).toBeUndefined();
    expect(o).toMatchObject({ activityId: 'FETCH:soc2:0', heartbeatTimeout: HEARTBEAT_TIMEOUT });
  });

  it('hardened takes the rule’s backoff, leaves the cap to the activity (unlimited on the server: a timeout spends nothing) and never retries a PermanentError', () => {
    for (const kind of ['pure', 'page', 'model', 'effect', 'delivery'] as const) {
      const { retry } = activityOptions('hardened', kind, 'X');
      const rule = retryRuleFor(kind);
      expect(retry?.maximumAttempts).toBeUndefined();
      expect(retry).toMatchObject({
        initialInterval: rule.backoff.initialMs,
        backoffCoefficient: rule.backoff.factor,
        maximumInterval: rule.backoff.maxMs,
      });
      expect(retry?.nonRetryableErrorTypes).toContain('PermanentError');
      // What the SDK does with it when the workflow schedules the activity (it refuses maximumAttempts: 0).
      expect(compileRetryPolicy(retry!).maximumAttempts ?? 0).toBe(0);
    }
  });

  it('a local activity leaves the cap to the activity too: its attempt number starts again in the worker that replays it', () => {
    expect(localVerifyOptions('hardened').retry).toEqual(activityOptions('hardened', 'pure', 'VERIFY:sso').retry);
    expect(localVerifyOptions('hardened').retry?.maximumAttempts).toBeUndefined();
  });

  it('every activity has a heartbeat timeout: that is how a dead worker is noticed', () => {
    expect(activityOptions('hardened', 'model', 'EXTRACT:sso').heartbeatTimeout).toBe('2s');
  });

  it('a run can set its own heartbeat timeout (from the workflow input), for every kind of step', () => {
    for (const kind of ['pure', 'page', 'model', 'effect', 'delivery'] as const)
      expect(activityOptions('naive', kind, 'X', 750).heartbeatTimeout).toBe(750);
  });
});
