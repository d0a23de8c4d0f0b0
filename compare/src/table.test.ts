import { describe, expect, it } from 'vitest';
import { fixtureResults } from '../test/fixture-results.ts';
import { toHtml } from './report/render-html.ts';
import { toMarkdown } from './report/render-markdown.ts';
import { toText } from './report/render-text.ts';
import { resultsDocument } from './report/results-document.ts';
import { crashRows, exitCodeFor, type ResultRow, type Results } from './report/results.ts';
import { columnSlice, distributionText, rowLabel, TABLE_WIDTH } from './table.ts';

// eslint-disable-next-line no-control-regex -- the escape character is what an ANSI colour code starts with
const ANSI = /\x1b\[[0-9;]*m/g;

/** What `pnpm compare` prints: the results document in the terminal. */
function terminal(results: Results, o: { color?: boolean; width?: number; rows?: ResultRow[] } = {}): string {
  const shown = o.rows ? { ...results, rows: o.rows } : results;
  return toText(resultsDocument(shown, o.width ? { width: o.width } : {}), { color: o.color ?? false });
}

describe('terminal table', () => {
  const results = fixtureResults();
  const plain = terminal({ ...results, meta: { ...results.meta, wallTimeMs: 61_000 } });
  const lines = plain.split('\n');

  it('fits 120 columns, also when coloured', () => {
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(TABLE_WIDTH);
    const coloured = terminal(results, { color: true });
    for (const l of coloured.split('\n')) expect(l.replace(ANSI, '').length).toBeLessThanOrEqual(TABLE_WIDTH);
  });

  it('has colour only when asked', () => {
    expect(plain).not.toMatch(ANSI);
    expect(terminal(results, { color: true })).toMatch(ANSI);
  });

  it('puts a lesson and an observed line under each crash point', () => {
    const i = lines.findIndex((l) => l.startsWith('after-deliver —'));
    expect(i).toBeGreaterThan(0);
    const block = lines.slice(i, i + 10).join('\n');
    expect(block).toMatch(/▸ .*mail twice/);
    expect(block).toMatch(/seen: side effect doubled in CP naive\/async, JN naive/);
  });

  it('shows the evidence in the right columns', () => {
    const i = lines.findIndex((l) => l.startsWith('after-deliver —'));
    const row = (label: string) => lines.slice(i).find((l) => l.startsWith(label))!;
    expect(columnSlice(row('CP naive/async'), 'effect')).toBe('yes');
    expect(columnSlice(row('CP hardened'), 'effect')).toBe('no');
    expect(columnSlice(row('JN naive'), 'repeated')).toBe('mail+1');
    const j = lines.findIndex((l) => l.startsWith('after-model —'));
    const modelRow = lines.slice(j).find((l) => l.startsWith('JN hardened'))!;
    expect(columnSlice(modelRow, 'extra model')).toBe('+1 $0.00210');
    expect(columnSlice(modelRow, 'recovery')).toBe('0.05 s');
    expect(lines.find((l) => /^\d+ cells: /.test(l))).toMatch(/^16 cells: 16 completed · wall time 61.0 s/);
  });

  it('uses a wider terminal for full labels, and keeps the 120-column layout as the minimum', () => {
    const rows = crashRows(results).map((r, i) =>
      i === 5 ? { ...r, lastDurableShort: 'cp 12 FETCH +2w (acme legal, acme trust)' } : r,
    );
    const narrow = terminal(results, { rows, width: 80 });
    expect(narrow).toBe(terminal(results, { rows }));
    expect(narrow).toContain('cp 12 FETCH +2w (ac…');
    const wide = terminal(results, { rows, width: 200 }).split('\n');
    expect(wide.some((l) => l.includes('cp 12 FETCH +2w (acme legal, acme trust)'))).toBe(true);
    for (const l of wide) expect(l.length).toBeLessThanOrEqual(200);
    expect(Math.max(...wide.map((l) => l.length))).toBeGreaterThan(TABLE_WIDTH);
  });

  it("scopes each crash point's lesson to the rows it holds for, and says why the others depart", () => {
    // The checkpointer at async durability, before the approval gate: what survives a kill depends on timing (CRASH_DEVIATIONS).
    const i = lines.findIndex((l) => l.startsWith('boundary —'));
    const block = lines.slice(i, lines.indexOf('', i)).join('\n');
    const lessons = block.split('\n').filter((l) => l.startsWith('  ▸ '));
    const rule = lessons.find((l) => /repeats nothing/.test(l))!;
    expect(rule).not.toMatch(/CP naive\/async/);
    expect(rule).toMatch(/^ {2}▸ CP hardened\/sync, JN naive, JN hardened: A crash on a durable boundary/);
    expect(block).toMatch(/▸ CP naive\/async: Durability "async" writes checkpoints in the background/);
  });

  it('counts outcomes that read alike once in a distribution (another page repeated, the same count)', () => {
    const outcome = (web: number, count: number, page: string) => ({
      outcome: `completed · repeated web GET ${page} +${web}`,
      lastDurableShort: '#4 SELECT_PAGE',
      repeatedByKind: { web },
      status: 'completed',
      count,
    });
    const outcomes = [outcome(1, 1, '/pricing'), outcome(2, 1, '/pricing'), outcome(1, 1, '/home')];
    expect(distributionText({ outcomes: outcomes as unknown as ResultRow['outcomes'], repetitions: 3 })).toBe(
      '#4 SELECT_PAGE → web+1 2/3 · #4 SELECT_PAGE → web+2 1/3',
    );
  });

  it('labels rows by runtime, variant and durability', () => {
    expect(rowLabel({ runtimeLabel: 'CP', variant: 'naive', durability: 'exit', baselineOf: null })).toBe(
      'CP naive/exit',
    );
    expect(rowLabel({ runtimeLabel: 'JN', variant: 'baseline', durability: null, baselineOf: 'hardened' })).toBe(
      'JN hardened',
    );
  });
});

describe('results', () => {
  it('match the --json contract', () => {
    const rows = crashRows(fixtureResults());
    for (const r of rows) {
      expect(['checkpointer', 'journal']).toContain(r.runtime);
      expect(['naive', 'hardened', 'baseline']).toContain(r.variant);
      expect(r.runtime === 'journal' ? r.durability === null : ['sync', 'async', 'exit'].includes(r.durability!)).toBe(
        true,
      );
      expect(typeof r.lastDurable).toBe('string');
      expect(typeof r.firstAfterResume).toBe('string');
      expect(Array.isArray(r.repeatedOperations)).toBe(true);
      expect(Number.isInteger(r.extraModelCalls)).toBe(true);
      expect(typeof r.extraCostUsd).toBe('number');
      expect(typeof r.stateDuplicated).toBe('boolean');
      expect(typeof r.sideEffectDuplicated).toBe('boolean');
      expect(r.recoveryMs === null || typeof r.recoveryMs === 'number').toBe(true);
      expect(typeof r.finalMatchesBaseline).toBe('boolean');
      expect(['completed', 'stuck', 'failed', 'lost', 'error']).toContain(r.status);
      expect(r.crashPoint === null).toBe(r.variant === 'baseline');
    }
  });

  it('exit 1 only when a cell could not run', () => {
    const rows = crashRows(fixtureResults());
    expect(exitCodeFor(rows)).toBe(0);
    expect(exitCodeFor(rows.map((r, i) => (i === 3 ? { ...r, status: 'stuck' as const } : r)))).toBe(0);
    expect(exitCodeFor(rows.map((r, i) => (i === 3 ? { ...r, status: 'error' as const } : r)))).toBe(1);
  });

  it('renders markdown with one section per crash point', () => {
    const md = toMarkdown(resultsDocument(fixtureResults()));
    expect(md).toMatch(/^# What re-executes when a worker dies: Checkpointer and Journal/);
    for (const p of ['boundary', 'after-model', 'after-deliver']) expect(md).toContain(`## ${p}`);
    expect(md).toContain('| CP naive/async | cp 6 VALIDATE | DELIVER mail | mail+1 | 0 | 0 | $0 | no | **yes** |');
    // The conditions of the measurement: outside settings in force (masked) and those kept from the workers.
    expect(md).toContain('Outside settings in force: `DATABASE_URL=postgres://u:***@db:5432/x`.');
    expect(md).toContain('deliberately not passed to the workers: `OPENAI_BASE_URL`.');
    expect(md).toMatch(/model simulated sim-4o-mini/);
    const html = toHtml(resultsDocument(fixtureResults()));
    expect(html).toContain('Outside settings in force: <code>DATABASE_URL=postgres://u:***@db:5432/x</code>.');
    expect(html).toContain('deliberately not passed to the workers: <code>OPENAI_BASE_URL</code>.');
  });
});
