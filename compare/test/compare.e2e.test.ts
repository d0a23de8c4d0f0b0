import { readFileSync } from 'node:fs';
import { crashCatalogue, crashSpec, selectScenarios, type Selection, expectationFor } from '@vendor-review/conformance';
import type { LedgerEntry } from '@vendor-review/world';
import { describe, expect, it } from 'vitest';
import { observedBy, type RunCompareResult } from '../src/run-compare.ts';
import { crashSuite } from '../src/suites/crash.ts';
import { crashRows, type ResultRow } from '../src/report/results.ts';
import { RUNTIME_NAMES, runtimeInfos, runtimeModules } from '../src/runtimes.ts';
import { columnSlice, repeatedSummary, rowLabel } from '../src/table.ts';
import { renderReport } from './browser.ts';
import { compareForTest } from './user-database.ts';

/**
 * `pnpm compare` on a reduced matrix, for real: the world server, PostgreSQL, a Temporal dev
 * server, worker processes of every registered runtime SIGKILLed after a paid model call and after
 * the mail, in both variants; then every claim the table makes is checked against the world's
 * ledger, and the report is opened in Chromium. Only the two crash points whose columns it checks:
 * each runtime's whole catalogue runs once, in its own package's crash suite (plain's in
 * plain.e2e.test.ts). LangGraph naive runs in `sync` here: what `async` keeps after a kill depends
 * on timing.
 */
const selection: Selection = { crashPoints: ['after-model', 'after-deliver'], durabilities: ['sync'] };
const scenarios = selectScenarios(selection, crashCatalogue(await runtimeInfos(RUNTIME_NAMES)));
let run: RunCompareResult;

crashSpec({
  name: 'pnpm compare',
  scenarios,
  run: async () => {
    run = await compareForTest({
      suites: ['crash'],
      crashPoints: [...selection.crashPoints!],
      durabilities: [...selection.durabilities!],
      repeat: 1,
    });
    return observedBy(run, crashSuite);
  },
});

const rowsAt = (p: string | null) => crashRows(run.results).filter((r) => r.crashPoint === p);
const ledgerOf = (r: ResultRow): LedgerEntry[] =>
  observedBy(run, crashSuite).find((o) => o.scenario.id === r.cellId)!.ledger;
const tableLine = (r: ResultRow): string => {
  const lines = run.table.split('\n');
  const start = lines.findIndex((l) => (r.crashPoint ? l.startsWith(`${r.crashPoint} — `) : l.startsWith('no crash')));
  return lines.slice(start).find((l) => l.startsWith(rowLabel(r)))!;
};
const delivered = (entries: LedgerEntry[], kind: LedgerEntry['kind']) =>
  entries.filter((e) => e.kind === kind && e.outcome === 'ok').length;

describe('the table and the files tell what the ledger says', () => {
  it('one row per cell, all of them run, and every row conforms', () => {
    expect(crashRows(run.results).map((r) => r.cellId)).toEqual(scenarios.map((s) => s.id));
    // A cell its runtime says varies (LangGraph Functional `sync`: its tasks' results are written in
    // the background) may end anywhere, lost too; every other cell must complete.
    const varies = (id: string) => {
      const s = scenarios.find((x) => x.id === id)!;
      return s.crashPoint !== null && expectationFor(s.crashPoint, s).expected.kind === 'varies';
    };
    for (const r of crashRows(run.results)) {
      expect([r.cellId, r.violations]).toEqual([r.cellId, []]);
      if (!varies(r.cellId)) expect([r.cellId, r.status]).toEqual([r.cellId, 'completed']);
    }
    expect(run.exitCode).toBe(0);
  });

  it('after-deliver: "effect" says yes exactly where the world delivered the mail twice', () => {
    for (const r of rowsAt('after-deliver')) {
      const twice = delivered(ledgerOf(r), 'mail') === 2;
      expect(twice, r.cellId).toBe(r.variant === 'naive');
      expect(columnSlice(tableLine(r), 'effect'), r.cellId).toBe(twice ? 'yes' : 'no');
      // The plain runner repeats everything; its column is too narrow to hold it all, the row is not.
      if (r.runtime === 'plain') expect(repeatedSummary(r), r.cellId).toMatch(/mail\+1/);
      else expect(columnSlice(tableLine(r), 'repeated'), r.cellId).toBe('mail+1');
    }
  });

  it('after-model: the table shows the extra paid call and its cost, as billed in the ledger', () => {
    for (const r of rowsAt('after-model').filter((x) => x.runtime !== 'plain')) {
      const model = ledgerOf(r).filter((e) => e.kind === 'model' && r.repeatedOperations.includes(e.opKey));
      expect(
        model.map((e) => e.worker),
        r.cellId,
      ).toEqual(['A', 'B']);
      expect(r.extraCostUsd).toBeCloseTo(model[1]!.costUsd!, 6);
      expect(columnSlice(tableLine(r), 'extra model')).toMatch(/^\+1 \$0\.\d+$/);
    }
  });

  it('the plain runner repeats every paid call worker A made; the durable runtimes at most one', () => {
    for (const r of rowsAt('after-deliver')) {
      const calls = ledgerOf(r).filter((e) => e.kind === 'model' && e.worker === 'A').length;
      expect(r.extraModelCalls, r.cellId).toBe(r.runtime === 'plain' ? calls : 0);
    }
  });

  it('writes results.json with the contract and the runtime versions', async () => {
    const json = JSON.parse(readFileSync(run.files.json, 'utf8'));
    expect(json.rows).toHaveLength(run.results.rows.length);
    expect(json.meta.runtimes.map((r: { name: string }) => r.name)).toEqual(RUNTIME_NAMES);
    // Keyed by runtime: every library each module names, with the version installed.
    const versions = json.meta.versions.runtimes as Record<string, Record<string, string | null>>;
    expect(Object.keys(versions)).toEqual(RUNTIME_NAMES);
    for (const m of await runtimeModules(RUNTIME_NAMES)) {
      expect(Object.keys(versions[m.info.name]!)).toEqual(Object.keys(m.versions()));
      for (const v of Object.values(versions[m.info.name]!)) expect(v, m.info.name).toMatch(/^\d+\.\d+\.\d+/);
    }
    expect(Object.values(versions).some((libs) => Object.keys(libs).length > 0)).toBe(true);
  });

  it('report.html opens in headless Chromium and draws every timeline with its crash', async () => {
    const r = await renderReport(run.files.html);
    expect(r.errors).toEqual([]);
    expect(r.requests).toEqual([]);
    expect(r.cells).toHaveLength(run.results.rows.length);
    for (const c of r.cells) {
      expect(c.drawn, c.cell).toBeGreaterThan(0);
      expect(c.ops, c.cell).toBeGreaterThan(0);
      expect(c.crashMarkers, c.cell).toBe(c.cell.endsWith('/baseline') ? 0 : 1);
    }
  }, 60_000);
});
