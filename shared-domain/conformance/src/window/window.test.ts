import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '@vendor-review/world';
import type { CellObservation } from '../observation.ts';
import type { RuntimeInfo } from '../adapter.ts';
import { windowScenario, windowSeries, type WindowScenario } from './catalogue.ts';
import { windowOutcome } from './measure.ts';
import { nextDelays, timeToDurable, type WindowPoint } from './sweep.ts';

const point = (delayMs: number, reran: number, judged = 3): WindowPoint => ({
  delayMs,
  runs: 3,
  judged,
  reran,
  lost: 0,
});

/** Drives a series whose step re-runs below `flip` ms, as the suite's driver would. */
function sweep(flip: number): number[] {
  const points: WindowPoint[] = [];
  for (let next = nextDelays(points); next.length; next = nextDelays(points))
    points.push(...next.map((d) => point(d, d < flip ? 3 : 0)));
  return points.map((p) => p.delayMs);
}

describe('the commit window sweep', () => {
  it('climbs until two δs in a row are clean, then tries finer between the flip', () => {
    expect(sweep(7)).toEqual([0, 1, 2, 5, 10, 20, 7, 6]);
    expect(sweep(0)).toEqual([0, 1]);
    // Never durable within the ladder: it climbs to the end and stops.
    expect(sweep(1000)).toEqual([0, 1, 2, 5, 10, 20, 50, 100, 200]);
  });

  it('a δ where nothing could be judged, or a run was lost, is not clean', () => {
    expect(nextDelays([point(0, 3), point(1, 0, 0), point(2, 0)])).toEqual([5]);
    expect(nextDelays([point(0, 3), point(1, 0), { ...point(2, 0, 0), lost: 3 }])).toEqual([5]);
  });

  it('time to durable is the latest death after which the step still ran again, with the runs killed later', () => {
    const run = (realDelayMs: number, reran: boolean) => ({ realDelayMs, reran });
    // Judged on the real delays: a kill asked for 14 ms that landed at 21 ms and re-ran counts at 21.
    expect(
      timeToDurable([
        run(0, true),
        run(9.9, false),
        run(21.1, true),
        run(20, false),
        run(21.4, false),
        run(50.4, false),
      ]),
    ).toEqual({ ms: 21.4, lastRerunMs: 21.1, keptLater: 2 });
    expect(timeToDurable([run(0, false), run(1.2, false)])).toEqual({ ms: 0, lastRerunMs: 0, keptLater: 2 });
    // The latest kill still re-ran it: not durable within what was tried.
    expect(timeToDurable([run(0, true), run(5, false), run(200.3, true)])).toBeNull();
    expect(timeToDurable([])).toBeNull();
  });
});

const info: RuntimeInfo = {
  name: 'lg',
  label: 'LG',
  title: 'LG',
  colour: '#000000',
  configurations: [
    { variant: 'naive', durability: 'async' },
    { variant: 'hardened', durability: null },
    { variant: 'naive', durability: 'sync', granularity: 'coarse' },
  ],
};

const entry = (seq: number, kind: LedgerEntry['kind'], opKey: string, outcome: LedgerEntry['outcome'] = 'ok') =>
  ({ seq, kind, opKey, outcome }) as LedgerEntry;

function observed(
  s: WindowScenario,
  ledger: LedgerEntry[],
  delayMs?: number,
): CellObservation & { scenario: WindowScenario } {
  return {
    scenario: s,
    status: 'completed',
    note: null,
    ledger,
    crash: {
      point: s.crashPoint!,
      occurrence: 1,
      action: 'kill',
      pid: 1,
      at: 0,
      detail: '',
      ...(delayMs === undefined ? {} : { delayMs }),
    },
  } as unknown as CellObservation & { scenario: WindowScenario };
}

describe('the commit window catalogue and its judge', () => {
  it('one series per fine-grained configuration and step; a delay of 0 kills at once', () => {
    expect(windowSeries([info]).map((s) => `${s.variant}/${s.durability}/${s.step}`)).toEqual([
      'naive/async/start',
      'naive/async/model',
      'naive/async/note',
      'hardened/null/start',
      'hardened/null/model',
      'hardened/null/note',
    ]);
    const [series] = windowSeries([info], { steps: ['model'] });
    expect(windowScenario(info, series!, 0).killDelayMs).toBeUndefined();
    expect(windowScenario(info, series!, 5)).toMatchObject({
      killDelayMs: 5,
      crashPoint: 'after-model',
      id: 'window/lg/naive/async/model+5',
    });
  });

  it("judges the step's own call: the same operation seen again, answered or deduplicated", () => {
    const [start, model, note] = windowSeries([info], { variants: ['hardened'] });
    const m = windowScenario(info, model!, 5);
    const n = windowScenario(info, note!, 5);
    const calls = [entry(1, 'web', 'w'), entry(2, 'model', 'm1'), entry(3, 'tracker', 't1'), entry(4, 'model', 'm2')];
    expect(windowOutcome(observed(m, calls, 5.4))).toEqual({ reran: false, lost: false, realDelayMs: 5.4, why: null });
    expect(windowOutcome(observed(m, [...calls, entry(5, 'model', 'm1')])).reran).toBe(true);
    expect(windowOutcome(observed(n, [...calls, entry(5, 'tracker', 't1', 'deduplicated')])).reran).toBe(true);
    // An injected fault is no call the step made.
    expect(windowOutcome(observed(n, [...calls, entry(5, 'tracker', 't1', 'fault')])).reran).toBe(false);
    // The first checkpoint has no call of its own: a run that came back and completed kept it.
    expect(windowOutcome(observed(windowScenario(info, start!, 5), calls, 5))).toMatchObject({
      reran: false,
      lost: false,
    });
    const stuck = { ...observed(m, calls), status: 'stuck' as const };
    expect(windowOutcome(stuck).reran).toBeNull();
    expect(windowOutcome({ ...observed(m, calls), status: 'lost' as const })).toMatchObject({
      reran: null,
      lost: true,
    });
  });
});
