import { readFileSync } from 'node:fs';
import {
  isWindowScenario,
  windowSeriesFigures,
  type CellObservation,
  type WindowScenario,
} from '@vendor-review/conformance';
import { beforeAll, describe, expect, it } from 'vitest';
import { observedBy, type RunCompareResult } from '../src/run-compare.ts';
import { windowSuite } from '../src/suites/window.ts';
import { windowRows } from '../src/report/results.ts';
import { windowLines, windowRuns } from '../src/report/window-rows.ts';
import { WindowRowSchema } from '../src/report/window-schema.ts';
import { compareForTest } from './user-database.ts';

/**
 * `pnpm compare --suite window`, reduced to LangGraph naive in two durability modes, the model step
 * and a short ladder, for real: worker A dies δ ms after the model's answer is in, worker B resumes.
 * The claims are checked where they come from: A's own death line, the world's ledger.
 */
const DELAYS = [0, 200];
let run: RunCompareResult;
/**
 * The first checkpoint, hardened, killed at once and `late` ms after the start call began: LangGraph
 * (invoke(), in the worker) and Temporal (the client's start, made in worker A's process), each in
 * a run of its own: a LangGraph worker held at invoke() for its turn goes on with the run meanwhile,
 * and another runtime's turn beside it can last until the run is over. Its crash line names the
 * call; Temporal's worker B prints the server's answer to its start.
 */
const STARTS = {
  langgraph: { late: 1000, detail: /^thread=/, answer: null },
  // Temporal's server answers a start within milliseconds; half a second keeps the cells short.
  temporal: { late: 500, detail: /^run=/, answer: { lost: /^START started /m, held: /^START already-started /m } },
} as const;
const startRuns: Record<string, RunCompareResult> = {};

beforeAll(async () => {
  run = await compareForTest({
    suites: ['window'],
    runtimes: ['langgraph'],
    variants: ['naive'],
    durabilities: ['sync', 'async'],
    windowSteps: ['model'],
    windowDelays: DELAYS,
    repeat: 2,
  });
  for (const [runtime, { late }] of Object.entries(STARTS))
    startRuns[runtime] = await compareForTest({
      suites: ['window'],
      runtimes: [runtime],
      variants: ['hardened'],
      windowSteps: ['start'],
      windowDelays: [0, late],
      repeat: 1,
    });
}, 15 * 60_000);

type WindowCell = CellObservation & { scenario: WindowScenario };
const cells = (of: RunCompareResult = run): WindowCell[] =>
  observedBy(of, windowSuite).filter((o): o is WindowCell => isWindowScenario(o.scenario));
/** The first model call's operation, and whether anyone made it again: the ledger's own answer. */
const ranAgain = (o: CellObservation) => {
  const calls = o.ledger.filter((e) => e.kind === 'model' && e.outcome !== 'fault').sort((a, b) => a.seq - b.seq);
  return calls.slice(1).some((e) => e.opKey === calls[0]!.opKey);
};

describe('the commit window, measured', () => {
  it('every run completed, killed at the point no sooner than asked', () => {
    expect(cells().length).toBeGreaterThanOrEqual(2 * 2 * DELAYS.length);
    for (const o of cells()) {
      expect([o.scenario.id, o.status], o.note ?? '').toEqual([o.scenario.id, 'completed']);
      expect(o.crash?.point).toBe('after-model');
      const asked = o.scenario.window.delayMs;
      if (asked === 0) expect(o.crash?.delayMs).toBeUndefined();
      // A timer may fire up to a millisecond early against the clock that measures it.
      else expect(o.crash?.delayMs).toBeGreaterThanOrEqual(asked - 1);
    }
  });

  it('a kill at once runs the finished step again, in every mode', () => {
    for (const o of cells().filter((c) => c.scenario.window.delayMs === 0))
      expect(ranAgain(o), o.scenario.id).toBe(true);
  });

  it('the rows count what the ledger shows, and time to durable follows from them', () => {
    const rows = windowRows(run.results);
    for (const r of rows) WindowRowSchema.parse(r);
    for (const r of rows) {
      const mine = cells().filter((o) => o.scenario.id === r.cellId);
      expect(r.runs).toBe(mine.length);
      expect(r.reran).toBe(mine.filter(ranAgain).length);
    }
    for (const line of windowLines(rows)) {
      const runs = line.rows.flatMap((r) => r.outcomes);
      if (!line.durable) continue;
      // Every run killed later than the time to durable kept the step.
      const later = runs.filter((o) => o.realDelayMs! >= line.durable!.ms);
      expect(later.length).toBe(line.durable.keptLater);
      expect(later.every((o) => o.reran === false)).toBe(true);
    }
  });

  it('one measured worker A at a time, at the default concurrency: no two lives overlap', () => {
    // Worker A of a measured cell runs from its start to its kill with every other worker frozen.
    const measured = cells()
      .filter((o) => o.crash?.delayMs !== undefined)
      .map((o) => o.workers.find((w) => w.name === 'A')!)
      .map((a) => [a.startedAt, a.exitedAt!] as const)
      .sort((x, y) => x[0] - y[0]);
    expect(measured.length).toBeGreaterThanOrEqual(2 * 2);
    // Epoch ms are whole milliseconds: a life may share its last one with the next.
    for (let i = 1; i < measured.length; i++) expect(measured[i]![0]).toBeGreaterThanOrEqual(measured[i - 1]![1] - 1);
  });

  it("every row carries its series' figures, the same as the points of all its rows", () => {
    const rows = windowRows(run.results);
    for (const r of rows) {
      const mine = rows.filter((x) => x.variant === r.variant && x.durability === r.durability && x.step === r.step);
      expect(r.figures).toEqual(windowSeriesFigures(mine, mine.flatMap(windowRuns)));
      expect(r.lateMs?.n ?? 0).toBe(r.outcomes.filter((o) => o.lateMs !== null).length);
    }
  });

  it.each(Object.entries(STARTS))(
    'the first checkpoint, %s: δ from the start call; the run lost or held, and the start retried makes no second',
    (runtime, expected) => {
      const mine = cells(startRuns[runtime]);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      for (const o of mine) {
        expect([o.scenario.id, o.status], `${o.note} ${JSON.stringify(o.workers)}`).toEqual([
          o.scenario.id,
          'completed',
        ]);
        expect(o.crash).toMatchObject({ point: 'start-call', detail: expect.stringMatching(expected.detail) });
        // One run in the runtime's record and one mail in the world, whatever the kill left.
        expect(o.durableFinal?.runs).toBe(1);
        expect(o.ledger.filter((e) => e.kind === 'mail').length).toBe(1);
      }
      const at = (d: number) => mine.find((o) => o.scenario.window.delayMs === d)!;
      // Killed before the start call could reach the runtime: it held no run, worker B started it anew.
      expect(at(0).durableAtCrash?.runs).toBe(0);
      expect(at(expected.late).durableAtCrash?.runs).toBe(1);
      const answered = (d: number) => at(d).workers.find((w) => w.name === 'B')?.logTail;
      if (expected.answer) {
        expect(answered(0)).toMatch(expected.answer.lost);
        expect(answered(expected.late)).toMatch(expected.answer.held);
      }
      const rows = windowRows(startRuns[runtime]!.results);
      expect(rows.find((r) => r.delayMs === 0)).toMatchObject({ lost: 1, startRuns: { existed: 0, secondRuns: 0 } });
      expect(rows.find((r) => r.delayMs === expected.late)).toMatchObject({
        lost: 0,
        startRuns: { existed: 1, secondRuns: 0 },
      });
    },
  );

  it('the report has the table and, in HTML, a chart per step', () => {
    const md = readFileSync(run.files.md, 'utf8');
    expect(md).toContain('The commit window');
    expect(md).toMatch(/LG naive sync .* \| .* \|/);
    const html = readFileSync(run.files.html, 'utf8');
    expect(html).toContain('class="window-chart"');
    expect(html.match(/class="window-point"/g)?.length).toBeGreaterThanOrEqual(2 * DELAYS.length);
  });
});
