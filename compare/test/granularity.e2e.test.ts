import { readFileSync } from 'node:fs';
import type { Granularity } from '@vendor-review/pipeline';
import type { CellObservation, GranularityScenario } from '@vendor-review/conformance';
import { beforeAll, describe, expect, it } from 'vitest';
import { observedBy, type RunCompareResult } from '../src/run-compare.ts';
import { granularitySuite } from '../src/suites/granularity.ts';
import { GranularityRowSchema } from '../src/report/granularity-schema.ts';
import { granularityRows } from '../src/report/results.ts';
import { compareForTest } from './user-database.ts';

/**
 * `pnpm compare --suite granularity`, reduced to the two ends of the trade (coarse and fine) in both
 * durable runtimes, for real: the world, PostgreSQL, a Temporal dev server, worker processes killed
 * with SIGKILL early and late in the research and replaced. The claims are checked where they come
 * from: repeated paid calls in the world's ledger, records written in each runtime's durable record.
 */
const GRANULARITIES: Granularity[] = ['coarse', 'fine'];
const RUNTIMES = ['langgraph', 'temporal'];
let run: RunCompareResult;

beforeAll(async () => {
  run = await compareForTest({
    suites: ['granularity'],
    runtimes: RUNTIMES,
    granularities: GRANULARITIES,
    repeat: 1,
  });
}, 15 * 60_000);

const cell = (runtime: string, granularity: Granularity, crash: 'early' | 'late' | null): CellObservation => {
  const found = observedBy(run, granularitySuite).find((o) => {
    const s = o.scenario as GranularityScenario;
    return s.runtime === runtime && s.granularity === granularity && s.crash === crash;
  });
  if (!found) throw new Error(`no cell ${runtime}/${granularity}/${crash ?? 'uncrashed'}`);
  return found;
};
const paid = (o: CellObservation) => o.ledger.filter((e) => e.kind === 'model' && e.outcome !== 'fault');
/** Model calls worker B made that worker A had already made and been answered: what the crash repeated. */
const repeatedByCrash = (o: CellObservation) => {
  const answeredToA = new Set(
    paid(o)
      .filter((e) => e.worker === 'A' && e.outcome === 'ok')
      .map((e) => e.opKey),
  );
  return paid(o).filter((e) => e.worker === 'B' && answeredToA.has(e.opKey)).length;
};
/** The row's definition: per model call, how many more times it ran than in the uncrashed run. */
const beyondUncrashed = (o: CellObservation, uncrashed: CellObservation) => {
  const count = (x: CellObservation) => {
    const m = new Map<string, number>();
    for (const e of paid(x)) m.set(e.opKey, (m.get(e.opKey) ?? 0) + 1);
    return m;
  };
  const base = count(uncrashed);
  return [...count(o)].reduce((sum, [k, n]) => sum + Math.max(0, n - (base.get(k) ?? 0)), 0);
};
/** Checkpoints (LangGraph) or history events (Temporal) in the run's durable record. */
const records = (o: CellObservation) =>
  (o.durableFinal?.marks ?? []).filter((m) => m.kind === 'checkpoint' || m.kind === 'event').length;

describe.each(RUNTIMES)('%s: node size, measured', (runtime) => {
  it('every cell ran to completion, and the crashed ones died where they were told to', () => {
    for (const g of GRANULARITIES) {
      for (const crash of [null, 'early', 'late'] as const) {
        const o = cell(runtime, g, crash);
        expect([o.scenario.id, o.status], o.note ?? '').toEqual([o.scenario.id, 'completed']);
        if (crash) expect(o.crash?.point, o.scenario.id).toBe(crash === 'late' ? 'after-progress' : 'after-model');
      }
    }
  });

  it('from the ledger: a late crash in coarse repeats more paid model calls than in fine', () => {
    const repeated = (g: Granularity) => repeatedByCrash(cell(runtime, g, 'late'));
    expect(repeated('coarse')).toBeGreaterThan(repeated('fine'));
    // The late kill comes after the last requirement's model answer was kept in fine: nothing paid twice.
    expect(repeated('fine')).toBe(0);
    // An early kill costs about the same at any size: the one answer that was not kept.
    for (const g of GRANULARITIES) expect(repeatedByCrash(cell(runtime, g, 'early')), g).toBe(1);
  });

  it('from the durable record: fine writes more checkpoints or history events than coarse, and stores more', () => {
    const coarse = cell(runtime, 'coarse', null);
    const fine = cell(runtime, 'fine', null);
    expect(records(fine)).toBeGreaterThan(records(coarse));
    expect(fine.durableFinal?.bytes ?? 0).toBeGreaterThan(coarse.durableFinal?.bytes ?? Infinity);
  });

  it('results.json holds the rows the record and the ledger say, in the contract of issue 11', () => {
    const json = JSON.parse(readFileSync(run.files.json, 'utf8')) as { rows: { suite: string }[] };
    const rows = json.rows.filter((r) => r.suite === 'granularity').map((r) => GranularityRowSchema.parse(r));
    const row = (g: Granularity, crash: 'early' | 'late' | null) =>
      rows.find((r) => r.runtime === runtime && r.granularity === g && r.crash === crash)!;
    for (const g of GRANULARITIES) {
      expect(row(g, null).durableRecords).toBe(records(cell(runtime, g, null)));
      expect(row(g, null).bytesStored).toBe(cell(runtime, g, null).durableFinal?.bytes);
      expect(row(g, null).overheadMs).toBeGreaterThan(0);
      expect(row(g, 'late').repeatedModelCalls).toBe(beyondUncrashed(cell(runtime, g, 'late'), cell(runtime, g, null)));
      expect(row(g, 'late').extraCostUsd).toBeGreaterThanOrEqual(0);
    }
    expect(row('coarse', 'late').extraCostUsd).toBeGreaterThan(row('fine', 'late').extraCostUsd!);
  });
});

describe('the report', () => {
  it('the terminal section has a line per runtime and granularity', () => {
    const rows = granularityRows(run.results);
    expect(rows).toHaveLength(RUNTIMES.length * GRANULARITIES.length * 3);
    expect(run.table).toMatch(/^granularity — what a crash repeats/m);
    for (const label of ['LG coarse', 'LG fine', 'TM coarse', 'TM fine'])
      expect(run.table.split('\n').some((l) => l.startsWith(label))).toBe(true);
    expect(run.exitCode).toBe(0);
  });

  it('report.html draws the trade: one point per runtime and granularity, inline, nothing fetched', () => {
    const html = readFileSync(run.files.html, 'utf8');
    const chart = /<svg class="granularity-chart"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';
    const points = [...chart.matchAll(/<g class="point" data-runtime="([a-z]+)" data-granularity="([a-z-]+)">/g)];
    expect(points.map((m) => `${m[1]}/${m[2]}`).sort()).toEqual(
      RUNTIMES.flatMap((r) => GRANULARITIES.map((g) => `${r}/${g}`)).sort(),
    );
    expect(html).not.toMatch(/<script|<link|src="http/);
  });
});
