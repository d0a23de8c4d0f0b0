import { describe, expect, it } from 'vitest';
import {
  windowScenario,
  windowSeries,
  type CellObservation,
  type RuntimeInfo,
  type WindowScenario,
} from '@vendor-review/conformance';
import type { LedgerEntry } from '@vendor-review/world';
import { buildWindowRows, spread, windowLines } from './window-rows.ts';
import { WindowRowSchema } from './window-schema.ts';
import { durableText, figuresText, timerText } from './window-table.ts';

const info: RuntimeInfo = {
  name: 'db',
  label: 'DB',
  title: 'DB',
  colour: '#000000',
  startCall: 'the worker',
  configurations: [{ variant: 'hardened', durability: null }],
};

const model = (seq: number): LedgerEntry => ({ seq, kind: 'model', opKey: 'm1', outcome: 'ok' }) as LedgerEntry;

/** One window run at `asked` ms: killed `real` ms after, re-running the model step or not. */
function cell(asked: number, repetition: number, real: number, reran: boolean, cpu: number): CellObservation {
  const [series] = windowSeries([info], { steps: ['model'] });
  const scenario: WindowScenario = windowScenario(info, series!, asked);
  return {
    scenario,
    repetition,
    runId: `r${asked}-${repetition}`,
    status: 'completed',
    note: null,
    startedAt: 0,
    endedAt: 1000,
    ledger: reran ? [model(1), model(2)] : [model(1)],
    durableAtCrash: null,
    durableFinal: null,
    crash: {
      point: 'after-model',
      occurrence: 1,
      action: 'kill',
      pid: 1,
      at: 0,
      detail: '',
      ...(asked ? { delayMs: real, cpu: { share: cpu, ticks: 2 } } : {}),
    },
  } as unknown as CellObservation;
}

describe("the window rows: each run's timer and CPU, the series' figures on every row", () => {
  const rows = buildWindowRows([
    cell(0, 0, 0, true, 0),
    cell(0, 1, 0, true, 0),
    cell(5, 0, 5.5, true, 0.5),
    cell(5, 1, 7, false, 1),
    cell(20, 0, 20.25, false, 0),
    cell(20, 1, 21, false, 0.25),
  ]);

  it('fits the schema, one row per asked δ, with the spread of how late and how busy', () => {
    for (const r of rows) WindowRowSchema.parse(r);
    expect(rows.map((r) => [r.delayMs, r.reran])).toEqual([
      [0, 2],
      [5, 1],
      [20, 0],
    ]);
    expect(rows[0]!.lateMs).toBeNull();
    expect(rows[1]).toMatchObject({ lateMs: { n: 2, median: 1.25, max: 2 }, cpuBusy: { n: 2, median: 0.75, max: 1 } });
    expect(rows[1]!.outcomes[0]).toMatchObject({ lateMs: 0.5, cpuBusy: 0.5, cpuTicks: 2, start: null });
  });

  it("every row carries its series' figures, from all its δs, and the report reads them there", () => {
    for (const r of rows)
      expect(r.figures).toMatchObject({
        lastRerunMs: 5,
        noneFromMs: 20,
        threeQuartersMs: 2.5,
        halfMs: 5,
        quarterMs: 12.5,
        // Each run at its real delay: the last re-run at 5.5 ms, kept from 7 ms on.
        onRealDelays: { threeQuartersMs: 5.875, halfMs: 6.25, quarterMs: 6.625 },
        points: expect.any(Array),
      });
    const [line] = windowLines(rows);
    expect(figuresText(line!)).toBe('last 5 · none from 20 · half 5 (quartiles 2.5–12.5)');
    expect(durableText(line!)).toMatch(/^half 6\.3 \(quartiles 5\.9–6\.6\) · 5\.5–7\.0 ms · \d+ kept$/);
    expect(timerText(rows)).toBe(
      'timer late median 0.75 ms, max 2.00 ms (4 runs); CPU busy over δ median 38 %, max 100 % (4 runs)',
    );
  });

  it('a figure no run has is null, not zero', () => {
    expect(spread([null, null])).toBeNull();
    expect(spread([3, null, 1])).toEqual({ n: 2, median: 2, max: 3 });
  });
});
