import { describe, expect, it } from 'vitest';
import { activityOptions, HARDENED_MAX_ATTEMPTS, HEARTBEAT_TIMEOUT } from './activity-options.ts';

describe('activityOptions', () => {
  it('naive sets no retry policy at all: the SDK default (unlimited attempts) applies', () => {
    const o = activityOptions('naive', 'web', 'FETCH:soc2:0');
    expect(o.retry).toBeUndefined();
    expect(o).toMatchObject({ activityId: 'FETCH:soc2:0', heartbeatTimeout: HEARTBEAT_TIMEOUT });
  });

  it('hardened caps every kind of step and never retries a PermanentError', () => {
    for (const kind of ['pure', 'web', 'model', 'effect', 'deliveryWait'] as const) {
      const { retry } = activityOptions('hardened', kind, 'X');
      expect(retry?.maximumAttempts).toBe(HARDENED_MAX_ATTEMPTS[kind]);
      expect(retry?.maximumAttempts).toBeGreaterThan(0);
      expect(retry?.nonRetryableErrorTypes).toContain('PermanentError');
    }
  });

  it('every activity has a heartbeat timeout: that is how a dead worker is noticed', () => {
    expect(activityOptions('hardened', 'model', 'EXTRACT:sso').heartbeatTimeout).toBe('2s');
  });

  it('a run can set its own heartbeat timeout (from the workflow input), for every kind of step', () => {
    for (const kind of ['pure', 'web', 'model', 'effect', 'deliveryWait'] as const)
      expect(activityOptions('naive', kind, 'X', 750).heartbeatTimeout).toBe(750);
  });
});
