import { afterEach, describe, expect, it } from 'vitest';
import { CRASH_POINT_NAMES, CrashPlanError, crashpoint, isArmed, parseCrashPlan, setCrashPlan } from './crashpoints.ts';

describe('crash plans', () => {
  afterEach(() => setCrashPlan([]));

  it('parses names with optional occurrences, and nothing as no plan', () => {
    expect(parseCrashPlan(undefined)).toEqual([]);
    expect(parseCrashPlan('  ')).toEqual([]);
    expect(parseCrashPlan('after-fetch, mid-model@3')).toEqual([
      { point: 'after-fetch', occurrence: 1 },
      { point: 'mid-model', occurrence: 3 },
    ]);
  });

  it('refuses an unknown point with an error that names every known one', () => {
    const err = (() => {
      try {
        parseCrashPlan('after-fetch,after-modle');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CrashPlanError);
    expect((err as Error).message).toContain('unknown crash point "after-modle"');
    for (const name of CRASH_POINT_NAMES) expect((err as Error).message).toContain(name);
    expect(() => parseCrashPlan('boundary@0')).toThrow(CrashPlanError);
  });

  it('arms only the named points, and an unarmed point returns without harm', async () => {
    setCrashPlan('after-deliver@2');
    expect(isArmed('after-deliver')).toBe(true);
    expect(isArmed('boundary')).toBe(false);
    await expect(crashpoint('boundary')).resolves.toBeUndefined();
    // First occurrence of an @2 plan: not yet.
    await expect(crashpoint('after-deliver')).resolves.toBeUndefined();
  });
});
