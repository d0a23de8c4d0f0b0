import { granularityCatalogue, type CellObservation } from '@vendor-review/conformance';
import {
  baselineObservation,
  crashedObservation,
  FAKE_RUNTIMES,
  checkpointerRecord,
  journalRecord,
  type FakeRuntime,
} from '@vendor-review/conformance/fixtures';
import { describe, expect, it } from 'vitest';
import { renderGranularityChart } from './granularity-chart.ts';
import { buildGranularityRows, granularityPoints } from './granularity-rows.ts';
import { GranularityRowSchema } from './granularity-schema.ts';
import { granularitySection, renderGranularity, renderGranularitySection } from './granularity-table.ts';
import { sectionMarkdown } from './render-markdown.ts';

/**
 * Constructed cells for the granularity report: the fixture pipeline's ledger, with a coarse run
 * that keeps few records and a fine one that keeps many, each crashed late (worker B re-ran the
 * whole pipeline in coarse, only the last note in fine).
 */
const catalogue = granularityCatalogue([FAKE_RUNTIMES.checkpointer, FAKE_RUNTIMES.journal], {
  requirements: 2,
  granularities: ['coarse', 'fine'],
  crashes: ['late'],
});
const scenario = (id: string) => catalogue.find((s) => s.id === id)!;

function cells(): CellObservation[] {
  const out: CellObservation[] = [];
  for (const runtime of ['checkpointer', 'journal'] as const) {
    for (const g of ['coarse', 'fine'] as const) {
      const base = baselineObservation(runtime, 'hardened');
      const few = g === 'coarse' ? 4 : 20;
      out.push({
        ...base,
        scenario: scenario(`${runtime}/hardened/${g}/uncrashed`),
        durableFinal: {
          ...(runtime === 'checkpointer' ? checkpointerRecord(few) : journalRecord(few * 5, 0)),
          bytes: few * 1000,
        },
      });
      // coarse: B re-ran everything (resumeFrom 0); fine: B re-sent the last note only (index 9).
      const crashed = crashedObservation({
        runtime,
        variant: 'hardened',
        crashPoint: 'after-progress',
        crashAfter: 10,
        resumeFrom: g === 'coarse' ? 0 : 9,
        dedupe: true,
      });
      out.push({ ...crashed, scenario: scenario(`${runtime}/hardened/${g}/late`) });
    }
  }
  return out;
}

describe('the granularity report', () => {
  const rows = buildGranularityRows(cells(), (r) => FAKE_RUNTIMES[r as FakeRuntime].label);

  it('builds rows in the contract of results.json: repeats from the ledger, records and bytes from the record', () => {
    expect(rows.map((r) => GranularityRowSchema.parse(r).cellId)).toEqual(
      ['checkpointer', 'journal'].flatMap((rt) =>
        ['coarse', 'fine'].flatMap((g) => [`${rt}/hardened/${g}/uncrashed`, `${rt}/hardened/${g}/late`]),
      ),
    );
    const row = (id: string) => rows.find((r) => r.cellId === id)!;
    expect(row('checkpointer/hardened/coarse/late').repeatedModelCalls).toBe(2);
    expect(row('checkpointer/hardened/fine/late').repeatedModelCalls).toBe(0);
    expect(row('journal/hardened/fine/uncrashed')).toMatchObject({ durableRecords: 100, bytesStored: 20_000 });
    expect(row('checkpointer/hardened/coarse/uncrashed').overheadMs).toBeGreaterThan(0);
    expect(row('checkpointer/hardened/coarse/late')).toMatchObject({ crashPlan: 'after-progress@2', overheadMs: null });
  });

  it('the terminal and markdown show one line per runtime and granularity, at most 120 columns', () => {
    const table = renderGranularity(rows, { color: false });
    for (const l of table.split('\n')) expect(l.length, l).toBeLessThanOrEqual(120);
    expect(table.split('\n').filter((l) => /^(CP|JN) (coarse|fine) /.test(l))).toHaveLength(4);
    expect(table).toContain('seen in CP: a late crash repeated coarse 2, fine 0 model call(s)');
    const md = sectionMarkdown(granularitySection(rows, Object.values(FAKE_RUNTIMES), { level: 1 }));
    expect(md.filter((l) => l.startsWith('| CP ') || l.startsWith('| JN '))).toHaveLength(4);
  });

  it('the chart has a point per runtime and granularity, placed by overhead and late repeats', () => {
    const svg = renderGranularityChart(rows, Object.values(FAKE_RUNTIMES));
    expect(svg.match(/<g class="point"/g)).toHaveLength(granularityPoints(rows).length);
    const y = (rt: string, g: string) =>
      Number(
        new RegExp(`data-runtime="${rt}" data-granularity="${g}"><circle cx="[\\d.]+" cy="([\\d.]+)"`).exec(svg)![1],
      );
    // More repeated work is drawn higher (smaller y).
    expect(y('checkpointer', 'coarse')).toBeLessThan(y('checkpointer', 'fine'));
    expect(renderGranularitySection(rows, Object.values(FAKE_RUNTIMES))).toContain('<h2 id="granularity">');
  });
});
