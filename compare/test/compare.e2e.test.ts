import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCompare, type RunCompareResult } from '../src/run-compare.ts';
import type { LedgerEntry } from '../src/ledger.ts';
import type { ResultRow } from '../src/report/results.ts';
import { columnSlice, rowLabel } from '../src/table.ts';
import { renderReport } from './browser.ts';

/**
 * A reduced matrix, for real: the world server, PostgreSQL, a Temporal dev server, worker
 * processes SIGKILLed at boundary / after-model / after-deliver in both runtimes and variants.
 * Every claim the table makes is checked against the world's ledger of the same cell.
 * LangGraph naive runs in `sync` here: the other modes are measured by `pnpm compare`, but what
 * `async` keeps after a kill depends on timing, and a test must not.
 */
let run: RunCompareResult;
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'compare-e2e-'));

beforeAll(async () => {
  run = await runCompare(
    {
      crashPoints: ['boundary', 'after-model', 'after-deliver'],
      durabilities: ['sync'],
      repeat: 1,
      json: false,
      reportDir,
      keepInfra: false,
      concurrency: 4,
      boundSeconds: 120,
      help: false,
    },
    { log: (l) => process.stderr.write(`${l}\n`), color: false },
  );
  process.stderr.write(`${run.table}\n`);
}, 1_200_000);

const rowsAt = (p: string | null) => run.results.rows.filter((r) => r.crashPoint === p);
const ledgerOf = (r: ResultRow): LedgerEntry[] => run.observations.find((o) => o.scenario.id === r.cellId)!.ledger;
const baselineLedger = (r: ResultRow): LedgerEntry[] =>
  run.observations.find(
    (o) => o.scenario.id === run.observations.find((x) => x.scenario.id === r.cellId)!.scenario.baselineId,
  )!.ledger;
const tableLine = (r: ResultRow): string => {
  const lines = run.table.split('\n');
  const start = lines.findIndex((l) => (r.crashPoint ? l.startsWith(`${r.crashPoint} — `) : l.startsWith('no crash')));
  return lines.slice(start).find((l) => l.startsWith(rowLabel(r)))!;
};
const delivered = (entries: LedgerEntry[], kind: LedgerEntry['kind']) =>
  entries.filter((e) => e.kind === kind && e.outcome === 'ok').length;

describe('pnpm compare, reduced matrix, end to end', () => {
  it('ran every cell to completion', () => {
    expect(run.results.rows).toHaveLength(4 + 3 * 4);
    for (const r of run.results.rows)
      expect(`${r.cellId}: ${r.status}${r.note ? ` (${r.note})` : ''}`).toBe(`${r.cellId}: completed`);
    expect(run.exitCode).toBe(0);
  });

  it('baselines: every operation once, the mail once', () => {
    for (const r of rowsAt(null)) {
      const ledger = ledgerOf(r);
      expect(delivered(ledger, 'mail')).toBe(1);
      expect(ledger.filter((e) => e.kind === 'model').length).toBeGreaterThanOrEqual(4);
      expect(r.finalMatchesBaseline).toBe(true);
    }
  });

  it('naive × after-deliver: the mail is delivered twice, in both runtimes', () => {
    const naive = rowsAt('after-deliver').filter((r) => r.variant === 'naive');
    expect(naive.map((r) => r.runtime).sort()).toEqual(['langgraph', 'temporal']);
    for (const r of naive) {
      expect(delivered(ledgerOf(r), 'mail')).toBe(2);
      expect(r.sideEffectDuplicated).toBe(true);
      expect(columnSlice(tableLine(r), 'effect')).toBe('yes');
      expect(columnSlice(tableLine(r), 'repeated')).toBe('mail+1');
    }
  });

  it('hardened × after-deliver: the second send is collapsed, one mail in the world', () => {
    for (const r of rowsAt('after-deliver').filter((x) => x.variant === 'hardened')) {
      const ledger = ledgerOf(r);
      expect(delivered(ledger, 'mail')).toBe(1);
      expect(ledger.filter((e) => e.kind === 'mail' && e.outcome === 'deduplicated').length).toBe(1);
      expect(r.sideEffectDuplicated).toBe(false);
      expect(columnSlice(tableLine(r), 'effect')).toBe('no');
      expect(r.finalMatchesBaseline).toBe(true);
    }
  });

  it('boundary: nothing repeats, the ledger has the baseline operations', () => {
    for (const r of rowsAt('boundary')) {
      expect(r.repeatedOperations).toEqual([]);
      expect(columnSlice(tableLine(r), 'repeated')).toBe('none');
      const mine = ledgerOf(r);
      const base = baselineLedger(r);
      for (const kind of ['web', 'model', 'tracker', 'mail'] as const) {
        expect(mine.filter((e) => e.kind === kind).length, `${r.cellId} ${kind}`).toBe(
          base.filter((e) => e.kind === kind).length,
        );
      }
      expect(r.extraModelCalls).toBe(0);
      expect(r.finalMatchesBaseline).toBe(true);
      expect(r.recoveryMs).toBeGreaterThan(0);
    }
  });

  it('after-model: exactly one extra model call, and the table shows its cost', () => {
    for (const r of rowsAt('after-model')) {
      const mine = ledgerOf(r).filter((e) => e.kind === 'model');
      const base = baselineLedger(r).filter((e) => e.kind === 'model');
      expect(mine.length - base.length, r.cellId).toBe(1);
      expect(r.extraModelCalls).toBe(1);
      // The repeated call is the same prompt twice: worker A's answer, then worker B's.
      const repeated = mine.filter((e) => r.repeatedOperations.includes(e.opKey));
      expect(repeated.map((e) => e.worker)).toEqual(['A', 'B']);
      expect(r.extraCostUsd).toBeCloseTo(repeated[1]!.costUsd, 6);
      expect(r.extraCostUsd).toBeGreaterThan(0);
      expect(columnSlice(tableLine(r), 'extra model')).toMatch(/^\+1 \$0\.\d+$/);
      expect(r.finalMatchesBaseline).toBe(true);
    }
  });

  it('writes results.json with the contract and the runtime versions', () => {
    const json = JSON.parse(readFileSync(run.files.json, 'utf8'));
    expect(json.rows).toHaveLength(run.results.rows.length);
    expect(json.meta.versions.langgraph).toMatch(/^\d+\.\d+\.\d+/);
    expect(json.meta.versions.temporalSdk).toMatch(/^\d+\.\d+\.\d+/);
    expect(json.meta.wallTimeMs).toBeGreaterThan(0);
    expect(json.meta.infrastructure.postgres).toBeTruthy();
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
