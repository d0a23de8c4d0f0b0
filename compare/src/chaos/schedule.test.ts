import { describe, expect, it } from 'vitest';
import { seededRng } from './rng.ts';
import {
  chaosRunId,
  DEFAULT_SCHEDULE,
  parseChaosRunId,
  runPlan,
  STRIKE_KINDS,
  strikes,
  workerPlan,
  type ScheduleOptions,
} from './schedule.ts';

const opts = (seed: string, over: Partial<ScheduleOptions> = {}): ScheduleOptions => ({
  ...DEFAULT_SCHEDULE,
  ...over,
  seed,
});

describe('the schedule is a function of the seed', () => {
  it('the same seed gives the same runs, worker plans and strikes; another seed does not', () => {
    const a = opts('42');
    const plansA = Array.from({ length: 50 }, (_, i) => runPlan(a, i));
    expect(Array.from({ length: 50 }, (_, i) => runPlan(opts('42'), i))).toEqual(plansA);
    expect(strikes(opts('42'), 600_000)).toEqual(strikes(a, 600_000));
    expect(workerPlan(a, 1, 3)).toEqual(workerPlan(opts('42'), 1, 3));
    expect(Array.from({ length: 50 }, (_, i) => runPlan(opts('43'), i))).not.toEqual(plansA);
    expect(strikes(opts('43'), 600_000)).not.toEqual(strikes(a, 600_000));
  });

  it("a run's plan does not depend on how many runs or strikes the campaign has", () => {
    const few = opts('7');
    const busy = opts('7', { gapsMs: { ...DEFAULT_SCHEDULE.gapsMs, kill: 500 } });
    expect(runPlan(busy, 17)).toEqual(runPlan(few, 17));
    // The kill rate changed; the other kinds' strikes did not move.
    const others = (o: ScheduleOptions) =>
      strikes(o, 300_000)
        .filter((s) => s.kind !== 'kill')
        .map(({ seq: _s, ...rest }) => rest);
    expect(others(busy)).toEqual(others(few));
  });

  it('strikes come in time order, numbered, inside the horizon, every kind at its mean rate within a margin', () => {
    const all = strikes(opts('9'), 3_600_000);
    expect(all.map((s) => s.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.every((s, i) => i === 0 || all[i - 1]!.at <= s.at)).toBe(true);
    expect(all.every((s) => s.at >= 0 && s.at < 3_600_000)).toBe(true);
    const outages = all.filter((s) => s.kind === 'approve-while-down').map((s) => s.at);
    const gap = DEFAULT_SCHEDULE.gapsMs['approve-while-down'];
    expect(outages.every((at, i) => at - (outages[i - 1] ?? 0) <= gap * 1.5)).toBe(true);
    for (const kind of STRIKE_KINDS) {
      const n = all.filter((s) => s.kind === kind).length;
      const expected = 3_600_000 / DEFAULT_SCHEDULE.gapsMs[kind];
      expect(n, kind).toBeGreaterThan(expected * 0.6);
      expect(n, kind).toBeLessThan(expected * 1.4);
    }
    const pauses = all.filter((s) => s.kind === 'pause');
    expect(
      pauses.every((p) => p.pauseMs! >= DEFAULT_SCHEDULE.pauseMs[0] && p.pauseMs! <= DEFAULT_SCHEDULE.pauseMs[1]),
    ).toBe(true);
    expect(all.filter((s) => s.kind === 'world-burst').every((s) => s.burst !== undefined)).toBe(true);
  });

  it('a kind with no gap never strikes', () => {
    const quiet = opts('1', { gapsMs: { ...DEFAULT_SCHEDULE.gapsMs, 'server-restart': 0 } });
    expect(strikes(quiet, 3_600_000).some((s) => s.kind === 'server-restart')).toBe(false);
  });

  it('arms runs and worker processes at about the asked rate, never the baselines’ first workers', () => {
    const o = opts('5', { armRate: 0.5 });
    const armed = Array.from({ length: 400 }, (_, i) => runPlan(o, i)).filter((p) => p.crash !== null).length;
    expect(armed).toBeGreaterThan(150);
    expect(armed).toBeLessThan(250);
    expect(Array.from({ length: 20 }, (_, slot) => workerPlan(o, slot, 0))).toEqual(Array(20).fill(null));
    const every = opts('5', { armRate: 1, points: ['after-deliver'], maxOccurrence: 1, stopShare: 0 });
    expect(workerPlan(every, 0, 1)).toEqual({ crash: 'after-deliver', stopMs: null });
    expect(runPlan(every, 3)).toMatchObject({ crash: 'after-deliver', stopMs: null });
    const frozen = opts('5', { armRate: 1, points: ['after-deliver'], maxOccurrence: 1, stopShare: 1 });
    expect(runPlan(frozen, 3).crash).toBe('after-deliver:stop');
    expect(runPlan(frozen, 3).stopMs).toBeGreaterThanOrEqual(DEFAULT_SCHEDULE.pauseMs[0]);
    // The share of stops moves no other draw: the same runs are armed, with the same points.
    expect(runPlan(frozen, 3).vendor).toBe(runPlan(every, 3).vendor);
    expect(runPlan(frozen, 3).holdApproval).toBe(runPlan(every, 3).holdApproval);
  });
});

describe('run ids', () => {
  it('say where a run belongs, and can be read back', () => {
    const id = chaosRunId('s1', 'JN', 'hardened', 42);
    expect(id).toBe('chs1-jn-hard-042');
    expect(parseChaosRunId(id)).toEqual({ seed: 's1', runtimeCode: 'jn', variant: 'hardened', index: 42 });
    expect(parseChaosRunId(chaosRunId('x-y', 'CP', 'naive', 7))).toEqual({
      seed: 'x-y',
      runtimeCode: 'cp',
      variant: 'naive',
      index: 7,
    });
    expect(parseChaosRunId('rev-acme-1234')).toBeNull();
    expect(parseChaosRunId(chaosRunId('s1', 'CP', 'naive', 'b0'))).toBeNull();
  });
});

describe('the random stream', () => {
  it('forks are independent of each other and of the parent', () => {
    const a = seededRng('s').fork('x');
    const b = seededRng('s').fork('y');
    const draws = (r: ReturnType<typeof seededRng>) => Array.from({ length: 5 }, () => r.next());
    expect(draws(a)).not.toEqual(draws(b));
    expect(draws(seededRng('s').fork('x'))).toEqual(draws(seededRng('s').fork('x')));
    const r = seededRng('t');
    expect(Array.from({ length: 1000 }, () => r.int(1, 3)).every((n) => n >= 1 && n <= 3)).toBe(true);
  });
});
