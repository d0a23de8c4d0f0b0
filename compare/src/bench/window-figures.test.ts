import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { windowSeriesFigures } from '@vendor-review/conformance';
import type { WindowRow } from '../report/window-schema.ts';
import { windowFigures } from './window-figures.ts';

const row = (o: Partial<WindowRow> & Pick<WindowRow, 'runtime' | 'variant' | 'durability' | 'step'>): WindowRow => {
  const delays = [0, 10];
  return {
    suite: 'window',
    runtimeLabel: o.runtime,
    delayMs: 0,
    runs: 2,
    judged: 2,
    reran: 0,
    lost: 0,
    status: 'ran',
    cellId: `${o.runtime}/${o.variant}/${o.step}`,
    wallMs: 1,
    lateMs: null,
    cpuBusy: null,
    startRuns: null,
    figures: windowSeriesFigures([]),
    outcomes: delays.map((d) => ({
      runId: 'r',
      status: 'completed',
      realDelayMs: d,
      reran: d === 0,
      lost: false,
      lateMs: null,
      cpuBusy: null,
      cpuTicks: null,
      start: null,
      why: null,
    })),
    ...o,
  };
};

function file(rows: unknown[]): string {
  const f = path.join(mkdtempSync(path.join(os.tmpdir(), 'window-figures-')), 'results.json');
  writeFileSync(f, JSON.stringify({ meta: { startedAt: '2026-12-05T08:00:00Z' }, rows }));
  return f;
}

describe("the window suite's time to durable beside the cost per step", () => {
  it('names each per-step row by its mode: the variant, or the naive durability mode', () => {
    const f = file([
      row({ runtime: 'lg', variant: 'naive', durability: 'sync', step: 'model' }),
      row({ runtime: 'lg', variant: 'naive', durability: 'sync', step: 'note' }),
      row({ runtime: 'lg', variant: 'hardened', durability: null, step: 'model' }),
      row({ runtime: 'db', variant: 'naive', durability: null, step: 'model' }),
      { suite: 'crash' },
    ]);
    const figures = windowFigures(f);
    expect(typeof figures).toBe('object');
    expect(figures).toMatchObject({
      measuredAt: '2026-12-05T08:00:00Z',
      byRow: {
        'lg:sync': '0.0–10.0 ms / 0.0–10.0 ms',
        'lg:hardened': '0.0–10.0 ms / —',
        'db:naive': '0.0–10.0 ms / —',
      },
    });
  });

  it('says why when there is nothing to show', () => {
    expect(windowFigures('/nowhere/results.json')).toMatch(/no file/);
    expect(windowFigures(file([{ suite: 'crash' }]))).toMatch(/no window suite rows/);
    expect(
      windowFigures(
        file([{ ...row({ runtime: 'lg', variant: 'naive', durability: 'sync', step: 'model' }), lost: undefined }]),
      ),
    ).toMatch(/cannot read/);
  });
});
