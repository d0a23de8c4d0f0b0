import { readFileSync } from 'node:fs';
import { isWindowScenario, type CellObservation, type WindowScenario } from '@vendor-review/conformance';
import { beforeAll, describe, expect, it } from 'vitest';
import { observedBy, type RunCompareResult } from '../src/run-compare.ts';
import { windowSuite } from '../src/suites/window.ts';
import { windowRows } from '../src/report/results.ts';
import { windowLines } from '../src/report/window-rows.ts';
import { WindowRowSchema } from '../src/report/window-schema.ts';
import { compareForTest } from './user-database.ts';

/**
 * `pnpm compare --suite window`, reduced to LangGraph naive in two durability modes, the model step
 * and a short ladder, for real: worker A dies δ ms after the model's answer is in, worker B resumes.
 * The claims are checked where they come from: A's own death line, the world's ledger.
 */
const DELAYS = [0, 200];
let run: RunCompareResult;

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
}, 15 * 60_000);

type WindowCell = CellObservation & { scenario: WindowScenario };
const cells = (): WindowCell[] =>
  observedBy(run, windowSuite).filter((o): o is WindowCell => isWindowScenario(o.scenario));
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

  it('the report has the table and, in HTML, a chart per step', () => {
    const md = readFileSync(run.files.md, 'utf8');
    expect(md).toContain('The commit window');
    expect(md).toMatch(/LG naive sync .* \| .* \|/);
    const html = readFileSync(run.files.html, 'utf8');
    expect(html).toContain('class="window-chart"');
    expect(html.match(/class="window-point"/g)?.length).toBeGreaterThanOrEqual(2 * DELAYS.length);
  });
});
