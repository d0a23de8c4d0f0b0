import { GRANULARITIES, VARIANTS, type Granularity, type Variant } from '@vendor-review/pipeline';
import {
  GRANULARITY_CRASHES,
  measureGranularityCell,
  type CellObservation,
  type GranularityScenario,
} from '@vendor-review/conformance';
import type { GranularityRow } from './granularity-schema.ts';
import { median } from './results.ts';

export type { GranularityRow } from './granularity-schema.ts';

const isGranularity = (o: CellObservation): o is CellObservation & { scenario: GranularityScenario } =>
  (o.scenario as Partial<GranularityScenario>).granularity !== undefined && 'crash' in o.scenario;

/**
 * Rows by runtime, then coarsest to finest, each uncrashed, early, late; a crashed cell is judged
 * against the uncrashed run of its runtime and granularity.
 */
export function buildGranularityRows(
  observations: CellObservation[],
  labelOf: (runtime: string) => string = (r) => r,
): GranularityRow[] {
  const cells = observations.filter(isGranularity);
  const byCell = new Map<string, (typeof cells)[number][]>();
  for (const o of cells) byCell.set(o.scenario.id, [...(byCell.get(o.scenario.id) ?? []), o]);
  const uncrashedOf = (id: string) =>
    (byCell.get(id) ?? []).sort((a, b) => a.repetition - b.repetition).find((o) => o.status === 'completed') ?? null;
  const rows: GranularityRow[] = [];
  for (const [cellId, reps] of byCell) {
    reps.sort((a, b) => a.repetition - b.repetition);
    const first = reps[0]!;
    const s = first.scenario;
    const uncrashed = s.crash === null ? null : uncrashedOf(s.baselineId);
    const f = measureGranularityCell(first, uncrashed);
    const overheads = reps
      .filter((o) => o.status === 'completed')
      .map((o) => measureGranularityCell(o, null).overheadMs)
      .filter((x): x is number => x !== null);
    const notes = [...new Set(reps.map((o) => o.note).filter(Boolean))] as string[];
    if (s.crash !== null && !uncrashed) notes.push('its uncrashed run did not complete, so nothing is judged repeated');
    rows.push({
      suite: 'granularity',
      granularity: s.granularity,
      runtime: s.runtime,
      crash: s.crash,
      repeatedModelCalls: f.repeatedModelCalls,
      extraCostUsd: f.extraCostUsd,
      durableRecords: f.durableRecords,
      bytesStored: f.bytesStored,
      overheadMs: s.crash === null ? median(overheads) : null,
      runtimeLabel: labelOf(s.runtime),
      variant: s.variant,
      crashPlan: s.crashPoint ? `${s.crashPoint}@${s.crashOccurrence ?? 1}` : null,
      repeatedByKind: f.repeatedByKind,
      recoveryMs: f.recoveryMs,
      wallMs: f.wallMs,
      worldMs: f.worldMs,
      repetitions: reps.length,
      status: first.status,
      note: notes.length ? notes.join('; ') : null,
      cellId,
      runId: first.runId,
    });
  }
  const runtimes = [...new Set(cells.map((o) => o.scenario.runtime))];
  const crashOrder = [null, ...GRANULARITY_CRASHES];
  const key = (r: GranularityRow) => [
    runtimes.indexOf(r.runtime),
    VARIANTS.indexOf(r.variant),
    GRANULARITIES.indexOf(r.granularity),
    crashOrder.indexOf(r.crash),
  ];
  return rows.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka.map((v, i) => v - kb[i]!).find((d) => d !== 0) ?? 0;
  });
}

/** The three rows of one runtime and granularity side by side: what the table and the chart show. */
export interface GranularityPoint {
  runtime: string;
  runtimeLabel: string;
  variant: Variant;
  granularity: Granularity;
  uncrashed: GranularityRow | null;
  early: GranularityRow | null;
  late: GranularityRow | null;
}

export function granularityPoints(rows: GranularityRow[]): GranularityPoint[] {
  const points: GranularityPoint[] = [];
  for (const r of rows) {
    let p = points.find((x) => x.runtime === r.runtime && x.variant === r.variant && x.granularity === r.granularity);
    if (!p) {
      p = {
        runtime: r.runtime,
        runtimeLabel: r.runtimeLabel,
        variant: r.variant,
        granularity: r.granularity,
        uncrashed: null,
        early: null,
        late: null,
      };
      points.push(p);
    }
    p[r.crash ?? 'uncrashed'] = r;
  }
  return points;
}

export function bytes(n: number | null): string {
  if (n === null) return '—';
  return n < 1000 ? `${n} B` : n < 1_000_000 ? `${(n / 1000).toFixed(1)} kB` : `${(n / 1_000_000).toFixed(2)} MB`;
}

export function ms(n: number | null): string {
  return n === null ? '—' : `${Math.round(n)} ms`;
}

/** "model+3 web+4 tracker+3", "nothing", or why the crash row has no figures. */
export function repeatedText(r: Pick<GranularityRow, 'status' | 'repeatedByKind'> | null): string {
  if (!r) return '—';
  if (r.status !== 'completed') return r.status;
  const kinds = Object.entries(r.repeatedByKind).filter(([, n]) => n > 0);
  // The paid calls first: they are what the chart plots.
  kinds.sort(([a], [b]) => (a === 'model' ? -1 : b === 'model' ? 1 : 0));
  return kinds.length ? kinds.map(([k, n]) => `${k}+${n}`).join(' ') : 'nothing';
}

export function pointLabel(p: Pick<GranularityPoint, 'runtimeLabel' | 'granularity'>): string {
  return `${p.runtimeLabel} ${p.granularity}`;
}
