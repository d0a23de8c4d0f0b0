import { CRASH_POINTS, CRASH_POINT_NAMES, type CrashPointName } from '@vendor-review/domain/pure';
import type { ResultRow } from './report/results.ts';

/**
 * The terminal table: one block per crash point, one line per runtime/variant, and the lesson of
 * that crash point underneath. At most 120 columns; colour only when asked (the caller decides
 * from isTTY and NO_COLOR).
 */
export const TABLE_WIDTH = 120;

interface Column {
  title: string;
  width: number;
  align?: 'right';
}

const COLUMNS: Column[] = [
  { title: 'runtime / variant', width: 17 },
  { title: 'last durable', width: 20 },
  { title: 'first after resume', width: 18 },
  { title: 'repeated', width: 12 },
  { title: 'extra model', width: 11 },
  { title: 'state', width: 5 },
  { title: 'effect', width: 6 },
  { title: 'recovery', width: 8, align: 'right' },
  { title: '=base', width: 5 },
  { title: 'status', width: 9 },
];

/** Where a column sits in a plain (uncoloured) row: lets a reader (or a test) take one cell out of a line. */
export function columnSlice(line: string, title: string): string {
  let start = 0;
  for (const c of COLUMNS) {
    if (c.title === title) return line.slice(start, start + c.width).trim();
    start += c.width + 1;
  }
  throw new Error(`no column "${title}"`);
}

type Paint = (code: string, text: string) => string;

function painter(color: boolean): Paint {
  return color ? (code, text) => `\x1b[${code}m${text}\x1b[0m` : (_code, text) => text;
}

export function fit(text: string, width: number, align?: 'right'): string {
  const t = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return align === 'right' ? t.padStart(width) : t.padEnd(width);
}

export function rowLabel(r: Pick<ResultRow, 'runtimeLabel' | 'variant' | 'durability' | 'baselineOf'>): string {
  const rt = r.runtimeLabel;
  // Baselines sit under their own heading, so they are labelled by the variant they stand for.
  const variant = r.variant === 'baseline' ? (r.baselineOf ?? 'baseline') : r.variant;
  return r.durability ? `${rt} ${variant}/${r.durability}` : `${rt} ${variant}`;
}

/** "web+1 model+1": how many extra executions per kind of operation. */
export function repeatedSummary(r: Pick<ResultRow, 'repeated'>): string {
  const list = r.repeated;
  if (!list.length) return 'none';
  const byKind = new Map<string, number>();
  for (const x of list) byKind.set(x.kind, (byKind.get(x.kind) ?? 0) + (x.count - x.baselineCount));
  return [...byKind].map(([k, n]) => `${k}+${n}`).join(' ');
}

export function money(usd: number): string {
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const a = Math.abs(usd);
  return `${sign}$${a >= 0.01 ? a.toFixed(3) : a.toFixed(5)}`;
}

export function seconds(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

function extraModel(r: ResultRow): string {
  // A lost or unfinished run did less than the baseline: a negative "extra" would only confuse.
  if (r.variant === 'baseline' || r.extraModelCalls < 0) return '—';
  const calls = r.extraModelCalls > 0 ? `+${r.extraModelCalls}` : String(r.extraModelCalls);
  return `${calls} ${money(r.extraCostUsd)}`;
}

function yesNo(v: boolean, paint: Paint, badWhenYes: boolean): string {
  return v ? paint(badWhenYes ? '31;1' : '32', 'yes') : paint(badWhenYes ? '32' : '31;1', 'no ');
}

function statusPaint(s: ResultRow['status'], paint: Paint, width: number): string {
  const code = s === 'completed' ? '32' : s === 'error' ? '31;1' : '33;1';
  return paint(code, fit(s, width));
}

function line(cells: string[]): string {
  return cells.join(' ').replace(/\s+$/, '');
}

/** Words to lines of at most `width`: the first line starts with `indent`, the rest line up under its text. */
export function wrap(text: string, width: number, indent: string): string[] {
  const rest = ' '.repeat(indent.length);
  const out: string[] = [];
  let prefix = indent;
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      out.push(prefix + line);
      prefix = rest;
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(prefix + line);
  return out;
}

function renderRow(r: ResultRow, paint: Paint): string {
  const [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9] = COLUMNS as [
    Column,
    Column,
    Column,
    Column,
    Column,
    Column,
    Column,
    Column,
    Column,
    Column,
  ];
  const repeated = repeatedSummary(r);
  const isBase = r.variant === 'baseline';
  return line([
    paint('1', fit(rowLabel(r), c0.width)),
    fit(r.lastDurableShort, c1.width),
    fit(r.firstAfterResumeShort, c2.width),
    repeated === 'none' ? paint('32', fit(repeated, c3.width)) : paint('33', fit(repeated, c3.width)),
    r.extraModelCalls > 0 ? paint('33', fit(extraModel(r), c4.width)) : fit(extraModel(r), c4.width),
    isBase ? fit('—', c5.width) : yesNo(r.stateDuplicated, paint, true) + ' '.repeat(c5.width - 3),
    isBase ? fit('—', c6.width) : yesNo(r.sideEffectDuplicated, paint, true) + ' '.repeat(c6.width - 3),
    fit(seconds(r.recoveryMs), c7.width, 'right'),
    (r.finalMatchesBaseline ? paint('32', 'yes') : paint('31;1', 'no ')) + ' '.repeat(c8.width - 3),
    statusPaint(r.status, paint, c9.width),
  ]);
}

export interface TableInput {
  rows: ResultRow[];
  wallTimeMs?: number;
  color: boolean;
}

/** A one-line account of what the rows of one crash point showed, computed, never canned. */
export function observedLine(rows: ResultRow[]): string {
  const names = (rs: ResultRow[]) => rs.map(rowLabel).join(', ');
  const parts: string[] = [];
  const effect = rows.filter((r) => r.sideEffectDuplicated);
  const model = rows.filter((r) => r.extraModelCalls > 0);
  const clean = rows.filter((r) => r.status === 'completed' && r.repeatedOperations.length === 0);
  const bad = rows.filter((r) => r.status !== 'completed');
  if (effect.length) parts.push(`side effect doubled in ${names(effect)}`);
  if (model.length) parts.push(`paid model calls repeated in ${names(model)}`);
  if (clean.length) parts.push(`nothing repeated in ${names(clean)}`);
  if (bad.length) parts.push(`did not complete: ${bad.map((r) => `${rowLabel(r)} (${r.status})`).join(', ')}`);
  return parts.length ? `seen: ${parts.join('; ')}.` : '';
}

export function renderTable({ rows, wallTimeMs, color }: TableInput): string {
  const paint = painter(color);
  const out: string[] = [];
  const header = line(COLUMNS.map((c) => fit(c.title, c.width, c.align)));
  const rule = '─'.repeat(Math.min(TABLE_WIDTH, header.length));
  out.push(paint('1', header), rule);

  const baselines = rows.filter((r) => r.crashPoint === null);
  if (baselines.length) {
    out.push(paint('1;36', 'no crash — the baselines every row below is compared with'));
    for (const r of baselines) out.push(renderRow(r, paint));
    out.push('');
  }
  const points = CRASH_POINT_NAMES.filter((p) => rows.some((r) => r.crashPoint === p));
  for (const p of points as CrashPointName[]) {
    const info = CRASH_POINTS[p];
    out.push(paint('1;36', fit(`${p} — ${info.where}`, TABLE_WIDTH).trimEnd()));
    const block = rows.filter((r) => r.crashPoint === p);
    for (const r of block) out.push(renderRow(r, paint));
    for (const l of wrap(info.lesson, TABLE_WIDTH, '  ▸ ')) out.push(paint('2', l));
    const seen = observedLine(block);
    if (seen) for (const l of wrap(seen, TABLE_WIDTH, '    ')) out.push(paint('2', l));
    out.push('');
  }
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  out.push(rule);
  out.push(`${rows.length} cells: ${summary}${wallTimeMs !== undefined ? ` · wall time ${seconds(wallTimeMs)}` : ''}`);
  const legend =
    "state / effect: duplicated in the run's state / in the outside world · recovery: crash → first progress by worker B · =base: final review equals the uncrashed baseline · LG = LangGraph, TM = Temporal";
  for (const l of wrap(legend, TABLE_WIDTH, '')) out.push(paint('2', l));
  return out.map((l) => l).join('\n');
}
