import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '@vendor-review/world';
import type { CellObservation } from '../observation.ts';
import type { RuntimeInfo } from '../adapter.ts';
import { windowScenario, windowSeries, type WindowScenario } from './catalogue.ts';
import { windowOutcome } from './measure.ts';
import { nextDelays, timeToDurable, windowSeriesFigures, type WindowPoint } from './sweep.ts';
import { spanLock } from './alone.ts';

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
  startCall: 'the worker, at invoke()',
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
  more: Partial<CellObservation> = {},
): CellObservation & { scenario: WindowScenario } {
  return {
    scenario: s,
    status: 'completed',
    note: null,
    ledger,
    durableAtCrash: null,
    durableFinal: null,
    crash: {
      point: s.crashPoint!,
      occurrence: 1,
      action: 'kill',
      pid: 1,
      at: 0,
      detail: '',
      ...(delayMs === undefined ? {} : { delayMs, cpu: { share: 0.25, ticks: 4 } }),
    },
    ...more,
  } as unknown as CellObservation & { scenario: WindowScenario };
}

const record = (runs: number) => ({ runtime: 'lg', kind: 'checkpoints' as const, marks: [], runs });

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
    // The first checkpoint only where the start call is made in a process a cell kills.
    expect(windowSeries([{ ...info, startCall: undefined }]).map((s) => s.step)).toEqual([
      'model',
      'note',
      'model',
      'note',
    ]);
    expect(windowScenario(info, windowSeries([info])[0]!, 5).crashPoint).toBe('start-call');
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
    expect(windowOutcome(observed(m, calls, 5.4))).toEqual({
      reran: false,
      lost: false,
      realDelayMs: 5.4,
      lateMs: expect.closeTo(0.4, 6),
      cpuBusy: 0.25,
      cpuTicks: 4,
      start: null,
      why: null,
    });
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

describe('the first checkpoint: the start call, the run it left, and the start retried', () => {
  const [start] = windowSeries([info], { variants: ['hardened'], steps: ['start'] });
  const s = windowScenario(info, start!, 5);
  const mail = (seq: number) => entry(seq, 'mail', `mail-${seq}`);

  it('held when worker A died and resumed: kept, one run', () => {
    const o = windowOutcome(observed(s, [mail(9)], 5, { durableAtCrash: record(1), durableFinal: record(1) }));
    expect(o).toMatchObject({
      reran: false,
      lost: false,
      start: { existedAtKill: true, runsAfter: 1, secondRun: false },
    });
  });

  it('not held when worker A died: lost with it, once, whatever worker B then made of the start', () => {
    const o = windowOutcome(observed(s, [mail(9)], 5, { durableAtCrash: record(0), durableFinal: record(1) }));
    expect(o).toMatchObject({ reran: null, lost: true, start: { existedAtKill: false, secondRun: false } });
    expect(o.why).toContain('made it anew');
  });

  it('a second run, in the record or in the world', () => {
    const inRecord = { durableAtCrash: record(1), durableFinal: record(2) };
    expect(windowOutcome(observed(s, [mail(9)], 5, inRecord)).start?.secondRun).toBe(true);
    const inWorld = { durableAtCrash: record(1), durableFinal: record(1) };
    expect(windowOutcome(observed(s, [mail(9), mail(12)], 5, inWorld)).start).toMatchObject({
      mails: 2,
      secondRun: true,
    });
  });

  it('an adapter that does not count runs says nothing of them', () => {
    expect(windowOutcome(observed(s, [mail(9)], 5)).start).toMatchObject({ existedAtKill: null, runsAfter: null });
  });
});

describe("a series' figures, in the delays asked", () => {
  const p = (delayMs: number, reran: number, of = 4, lost = 0): WindowPoint => ({
    delayMs,
    runs: of,
    judged: of - lost,
    reran,
    lost,
  });

  it('the last δ with a re-run, the first after which none did, and where half stopped keeping it', () => {
    const f = windowSeriesFigures([p(10, 1), p(0, 4), p(5, 3), p(20, 0), p(50, 0)]);
    expect(f).toMatchObject({ lastRerunMs: 10, noneFromMs: 20 });
    // 3/4 at 5 ms, 1/4 at 10 ms: half at 7.5 ms.
    expect(f.halfMs).toBeCloseTo(7.5, 6);
    expect(f.points.map((x) => [x.delayMs, x.notKept, x.of])).toEqual([
      [0, 4, 4],
      [5, 3, 4],
      [10, 1, 4],
      [20, 0, 4],
      [50, 0, 4],
    ]);
  });

  it('a lost run did not keep the step; a δ nobody could judge says nothing', () => {
    const f = windowSeriesFigures([p(0, 0, 2, 2), p(1, 0, 3, 3), p(2, 0, 3, 0)]);
    expect(f).toMatchObject({ lastRerunMs: 1, noneFromMs: 2, halfMs: 1.5 });
    expect(windowSeriesFigures([p(0, 0, 3, 0), { ...p(1, 0), judged: 0 }, p(2, 0)])).toMatchObject({
      lastRerunMs: null,
      noneFromMs: 2,
    });
  });

  it('half is null below the smallest δ or past the largest, and nothing is never durable', () => {
    expect(windowSeriesFigures([p(0, 1), p(5, 0)]).halfMs).toBeNull();
    expect(windowSeriesFigures([p(0, 4), p(5, 3)])).toMatchObject({ halfMs: null, noneFromMs: null, lastRerunMs: 5 });
    expect(windowSeriesFigures([])).toEqual({
      lastRerunMs: null,
      noneFromMs: null,
      threeQuartersMs: null,
      halfMs: null,
      quarterMs: null,
      onRealDelays: { threeQuartersMs: null, halfMs: null, quarterMs: null },
      points: [],
    });
  });

  it('the same quartiles with each run at its real delay: a timer that fired late moves them less', () => {
    const run = (realDelayMs: number, reran: boolean) => ({ realDelayMs, reran });
    // Asked 4 ms twice: one died at 4.2 and re-ran, one at 7.8 (its timer late) and kept it.
    const points = [p(2, 2, 2), p(4, 1, 2), p(6, 0, 2)];
    const runs = [run(2.1, true), run(2.3, true), run(4.2, true), run(7.8, false), run(6.1, false), run(6.4, false)];
    const f = windowSeriesFigures(points, runs);
    expect(f.halfMs).toBeCloseTo(4, 6);
    // Re-ran up to 4.2 ms, kept from 6.1 ms: the crossings lie between those two runs.
    expect(f.onRealDelays.threeQuartersMs).toBeCloseTo(4.2 + 0.25 * 1.9, 6);
    expect(f.onRealDelays.halfMs).toBeCloseTo(4.2 + 0.5 * 1.9, 6);
    expect(f.onRealDelays.quarterMs).toBeCloseTo(4.2 + 0.75 * 1.9, 6);
    // A tie at one real delay, one run re-running and one keeping it: the crossings lie at that delay.
    expect(windowSeriesFigures([], [run(3, false), run(3, true), run(5, false)]).onRealDelays.halfMs).toBeCloseTo(3, 6);
  });

  it('the quartiles of the time to durable, from the shares made non-increasing', () => {
    // 4/4 at 2 ms, then 2/5 at 3, 1/5 at 4, 3/5 at 5 (more than at 4: pooled with it, 2/5 each), 1/5 at 6, 0 at 7.
    const f = windowSeriesFigures([p(2, 4), p(3, 2, 5), p(4, 1, 5), p(5, 3, 5), p(6, 1, 5), p(7, 0, 5)]);
    expect(f.threeQuartersMs).toBeCloseTo(2 + 0.25 / 0.6, 6);
    expect(f.halfMs).toBeCloseTo(2 + 0.5 / 0.6, 6);
    // 2/5 until 5 ms, 1/5 at 6: a quarter at 5.75 ms.
    expect(f.quarterMs).toBeCloseTo(5.75, 6);
  });
});

describe('a measured worker A alone', () => {
  /** A worker as the lock sees it: the signals it was sent, in order. */
  const worker = (name: string) => {
    const got: string[] = [];
    return {
      name,
      got,
      alive: true,
      signal(sig: NodeJS.Signals) {
        got.push(sig);
      },
    };
  };

  it('freezes every other worker for the span, wakes them after, one span at a time', async () => {
    const lock = spanLock();
    const [a, b, c] = [worker('A'), worker('B'), worker('C')];
    for (const w of [a, b, c]) lock.track(w);
    const order: string[] = [];
    let endFirst!: () => void;
    // A's cell: its workers, read live (one it starts during its span runs too).
    const cellOfA = [a];
    const first = lock.alone(cellOfA, async () => {
      order.push('A go');
      await new Promise<void>((r) => (endFirst = r));
    });
    const second = lock.alone([c], async () => {
      order.push('C go');
    });
    await new Promise((r) => setImmediate(r));
    // B and C are frozen while A's span runs, A is not; C's turn waits.
    expect([a.got, b.got, c.got, order]).toEqual([[], ['SIGSTOP'], ['SIGSTOP'], ['A go']]);
    // A worker another cell starts during the span is frozen at once; one of A's own cell is not.
    const d = worker('D');
    lock.track(d);
    const a2 = worker('A2');
    cellOfA.push(a2);
    lock.track(a2);
    expect([d.got, a2.got]).toEqual([['SIGSTOP'], []]);
    endFirst();
    await first;
    await second;
    expect(order).toEqual(['A go', 'C go']);
    expect(b.got).toEqual(['SIGSTOP', 'SIGCONT', 'SIGSTOP', 'SIGCONT']);
    // C was woken after A's span, and not frozen during its own; A was frozen during C's.
    expect(c.got).toEqual(['SIGSTOP', 'SIGCONT']);
    expect(a.got).toEqual(['SIGSTOP', 'SIGCONT']);
  });

  it('leaves alone a worker that has left, and a span that fails still wakes the others', async () => {
    const lock = spanLock();
    const [a, b, gone] = [worker('A'), worker('B'), worker('gone')];
    lock.track(a);
    lock.track(b);
    const untrack = lock.track(gone);
    untrack();
    await expect(lock.alone([a], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect([b.got, gone.got]).toEqual([['SIGSTOP', 'SIGCONT'], []]);
    await lock.alone([b], async () => {});
    expect(a.got).toEqual(['SIGSTOP', 'SIGCONT']);
  });

  it("holds another cell's harness work for the span, never the holder's own", async () => {
    const lock = spanLock();
    const [a, b] = [worker('A'), worker('B')];
    lock.track(a);
    lock.track(b);
    await lock.quiet([b]); // no span: at once
    let end!: () => void;
    const cellOfA = [a];
    const span = lock.alone(cellOfA, () => new Promise<void>((r) => (end = r)));
    await new Promise((r) => setImmediate(r));
    await lock.quiet(cellOfA); // the holder's own cell goes on
    let othersWent = false;
    const others = lock.quiet([b]).then(() => (othersWent = true));
    await new Promise((r) => setImmediate(r));
    expect(othersWent).toBe(false);
    end();
    await span;
    await others;
    expect(othersWent).toBe(true);
  });
});
