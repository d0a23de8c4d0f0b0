import { DURABILITIES, VARIANTS } from '@vendor-review/pipeline';
import {
  isWindowScenario,
  timeToDurable,
  windowSeriesFigures,
  windowOutcome,
  windowPoint,
  windowSeriesId,
  WINDOW_STEPS,
  type CellObservation,
  type WindowRun,
  type WindowScenario,
  type WindowSeries,
} from '@vendor-review/conformance';
import { median } from './results.ts';
import type { WindowRow } from './window-schema.ts';

export type { WindowRow } from './window-schema.ts';

type WindowCell = CellObservation & { scenario: WindowScenario };

/** A figure over the runs that have it: how many, the median and the largest. */
export function spread(xs: readonly (number | null)[]): { n: number; median: number; max: number } | null {
  const have = xs.filter((x): x is number => x !== null);
  return have.length ? { n: have.length, median: median(have, { exact: true })!, max: Math.max(...have) } : null;
}

/** One row per series and asked delay, its runs under it; series in table order, delays rising. */
export function buildWindowRows(
  observations: readonly CellObservation[],
  labelOf: (runtime: string) => string = (r) => r,
): WindowRow[] {
  const byCell = new Map<string, WindowCell[]>();
  for (const o of observations)
    if (isWindowScenario(o.scenario))
      byCell.set(o.scenario.id, [...(byCell.get(o.scenario.id) ?? []), o as WindowCell]);
  const rows: WindowRow[] = [];
  for (const [cellId, runs] of byCell) {
    runs.sort((a, b) => a.repetition - b.repetition);
    const w = runs[0]!.scenario.window;
    const outcomes = runs.map((o) => ({ runId: o.runId, status: o.status, ...windowOutcome(o) }));
    const point = windowPoint(w.delayMs, outcomes);
    const starts = outcomes.flatMap((o) => (o.start ? [o.start] : []));
    rows.push({
      suite: 'window',
      runtime: w.runtime,
      runtimeLabel: labelOf(w.runtime),
      variant: w.variant,
      durability: w.durability,
      step: w.step,
      ...point,
      outcomes,
      status: point.judged || point.lost ? 'ran' : 'error',
      cellId,
      wallMs: median(runs.map((o) => o.endedAt - o.startedAt)) ?? 0,
      lateMs: spread(outcomes.map((o) => o.lateMs)),
      cpuBusy: spread(outcomes.map((o) => o.cpuBusy)),
      startRuns: starts.length
        ? {
            existed: starts.filter((x) => x.existedAtKill === true).length,
            secondRuns: starts.filter((x) => x.secondRun).length,
          }
        : null,
      figures: windowSeriesFigures([]), // the series' own, once all its rows are in (below)
    });
  }
  // Every row of a series carries the series' figures, from all its delays and runs.
  const series = new Map<string, WindowRow[]>();
  for (const r of rows) series.set(windowSeriesId(r), [...(series.get(windowSeriesId(r)) ?? []), r]);
  const figures = new Map([...series].map(([id, mine]) => [id, windowSeriesFigures(mine, mine.flatMap(windowRuns))]));
  for (const r of rows) r.figures = figures.get(windowSeriesId(r))!;
  const runtimes = [...new Set(rows.map((r) => r.runtime))];
  const key = (r: WindowRow) => [
    WINDOW_STEPS.indexOf(r.step),
    runtimes.indexOf(r.runtime),
    VARIANTS.indexOf(r.variant),
    r.durability === null ? -1 : DURABILITIES.indexOf(r.durability),
    r.delayMs,
  ];
  return rows.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka.map((v, i) => v - kb[i]!).find((d) => d !== 0) ?? 0;
  });
}

/** A chart line and a table row: one series' delays, and its time to durable. */
export interface WindowLine extends WindowSeries {
  id: string;
  runtimeLabel: string;
  rows: WindowRow[];
  durable: ReturnType<typeof timeToDurable>;
}

/** Runs that did not keep the step (ran it again, or lost the run), of the runs that say: a share, or null. */
export function notKept(r: WindowRow): { count: number; of: number } | null {
  const of = r.judged + r.lost;
  return of ? { count: r.reran + r.lost, of } : null;
}

export function windowLines(rows: readonly WindowRow[]): WindowLine[] {
  const lines = new Map<string, WindowLine>();
  for (const r of rows) {
    const id = windowSeriesId(r);
    const line = lines.get(id) ?? {
      id,
      runtime: r.runtime,
      runtimeLabel: r.runtimeLabel,
      variant: r.variant,
      durability: r.durability,
      step: r.step,
      rows: [],
      durable: null,
    };
    line.rows.push(r);
    lines.set(id, line);
  }
  for (const l of lines.values()) l.durable = timeToDurable(l.rows.flatMap(windowRuns));
  return [...lines.values()];
}

/** A row's runs that say either way, at their real delays; a lost run kept nothing, the step's result least of all. */
export const windowRuns = (r: Pick<WindowRow, 'outcomes'>): WindowRun[] =>
  r.outcomes.flatMap((o) =>
    (o.reran !== null || o.lost) && o.realDelayMs !== null
      ? [{ realDelayMs: o.realDelayMs, reran: o.reran === true || o.lost }]
      : [],
  );

export const lineLabel = (l: Pick<WindowLine, 'runtimeLabel' | 'variant' | 'durability'>): string =>
  `${l.runtimeLabel} ${l.variant}${l.durability ? ` ${l.durability}` : ''}`;

/** The real delays of the runs that say something (judged, or lost), earliest first. */
export const realDelays = (r: WindowRow): number[] =>
  windowRuns(r)
    .map((x) => x.realDelayMs)
    .sort((a, b) => a - b);
