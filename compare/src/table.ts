import { type CrashPointName } from '@vendor-review/instrument/points';
import { CRASH_POINTS } from '@vendor-review/conformance';
import type { Outcome, ResultRow } from './report/crash-schema.ts';

/**
 * The words of the crash table, in every medium (report/crash-sections.ts lays them out): a row's
 * label, what repeated, money and seconds, a varying cell's distribution, the lesson and what was
 * seen; and the terminal's column widths (at least 120 columns in all).
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

export function fit(text: string, width: number, align?: 'right'): string {
  const t = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return align === 'right' ? t.padStart(width) : t.padEnd(width);
}

export function rowLabel(
  r: Pick<ResultRow, 'runtimeLabel' | 'variant' | 'durability' | 'baselineOf'> & {
    stop?: 'kill' | 'term';
    stopping?: { left: 'exited' | 'signal' | 'killed'; leftAfterMs: number; graceMs: number } | null;
  },
): string {
  const rt = r.runtimeLabel;
  // Baselines sit under their own heading, so they are labelled by the variant they stand for.
  const variant = r.variant === 'baseline' ? (r.baselineOf ?? 'baseline') : r.variant;
  const label = r.durability ? `${rt} ${variant}/${r.durability}` : `${rt} ${variant}`;
  return r.stop === 'term' ? `${label} TERM ${stoppedText(r.stopping ?? null)}` : label;
}

/** How a worker asked to stop left: "left 0.4s" by itself, "killed 5s" at the end of the grace. */
function stoppedText(s: { left: 'exited' | 'signal' | 'killed'; leftAfterMs: number; graceMs: number } | null): string {
  if (!s) return '?';
  return s.left === 'killed'
    ? `killed ${Math.round(s.graceMs / 100) / 10}s`
    : `left ${Math.round(s.leftAfterMs / 100) / 10}s`;
}

/** "web+1 model+1": how many extra executions per kind of operation. */
export function repeatedSummary(r: Pick<ResultRow, 'repeated'>): string {
  const list = r.repeated;
  if (!list.length) return 'none';
  const byKind = new Map<string, number>();
  for (const x of list) byKind.set(x.kind, (byKind.get(x.kind) ?? 0) + (x.count - x.baselineCount));
  return [...byKind].map(([k, n]) => `${k}+${n}`).join(' ');
}

/** Dollars; `$?` when the model's price is unknown (never $0 for an unknown price). */
export function money(usd: number | null): string {
  if (usd === null) return '$?';
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const a = Math.abs(usd);
  return `${sign}$${a >= 0.01 ? a.toFixed(3) : a.toFixed(5)}`;
}

export function seconds(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

export function extraModelText(r: ResultRow): string {
  // A lost or unfinished run did less than the baseline: a negative "extra" would only confuse.
  if (r.variant === 'baseline' || r.extraModelCalls < 0) return '—';
  const calls = r.extraModelCalls > 0 ? `+${r.extraModelCalls}` : String(r.extraModelCalls);
  return `${calls} ${money(r.extraCostUsd)}`;
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

/** Each column's text for a row, uncoloured: what widths are measured on. */
function cellTexts(r: ResultRow): string[] {
  const isBase = r.variant === 'baseline';
  return [
    rowLabel(r),
    r.lastDurableShort,
    r.firstAfterResumeShort,
    repeatedSummary(r),
    extraModelText(r),
    isBase ? '—' : r.stateDuplicated ? 'yes' : 'no',
    isBase ? '—' : r.sideEffectDuplicated ? 'yes' : 'no',
    seconds(r.recoveryMs),
    r.finalMatchesBaseline ? 'yes' : 'no',
    r.status,
  ];
}

/**
 * Column widths for `width` terminal columns: today's 120-column layout as the minimum, and, when
 * the terminal is wider, each column as wide as its longest text (in column order, while room lasts),
 * so labels are shown in full instead of cut with "…".
 */
export function columnWidths(rows: ResultRow[], width: number = TABLE_WIDTH): number[] {
  const widths = COLUMNS.map((c) => c.width);
  const natural = COLUMNS.map((c, i) => Math.max(c.width, c.title.length, ...rows.map((r) => cellTexts(r)[i]!.length)));
  let room = Math.max(0, width - (widths.reduce((a, b) => a + b, 0) + COLUMNS.length - 1));
  for (let i = 0; i < COLUMNS.length && room > 0; i++) {
    const grow = Math.min(room, natural[i]! - widths[i]!);
    widths[i]! += grow;
    room -= grow;
  }
  return widths;
}

/** "web+1 model+1" for one outcome of a cell or hazard row. */
export function kindsText(o: Pick<Outcome, 'repeatedByKind'>): string {
  const parts = Object.entries(o.repeatedByKind).filter(([, n]) => n && n > 0);
  return parts.length ? parts.map(([k, n]) => `${k}+${n}`).join(' ') : 'none';
}

/**
 * A cell whose repetitions disagreed, as its distribution: per distinct outcome where the resume
 * started, what repeated, and in how many runs ("cp -1 input → web+3 model+3 2/3 · cp 5 FETCH → none 1/3");
 * a mid-commit cell also by what the store held when the worker died.
 */
export function distributionText(r: Pick<ResultRow, 'outcomes' | 'repetitions'>): string {
  // Outcomes that differ only in which operations repeated read alike here: counted as one.
  const counts = new Map<string, number>();
  for (const o of r.outcomes) {
    const held = o.atTheKill ? `[${o.atTheKill}] ` : '';
    const text = `${held}${o.lastDurableShort} → ${kindsText(o)}${o.status !== 'completed' ? ` (${o.status})` : ''}`;
    counts.set(text, (counts.get(text) ?? 0) + o.count);
  }
  return [...counts].map(([text, n]) => `${text} ${n}/${r.repetitions}`).join(' · ');
}

/**
 * What a row says of its runs where its outcome depends on timing: the distribution its runs
 * showed, or that it ran once and how to see more (`--full` runs such a row `fullRuns` times). One
 * wording for crash cells and hazard rows alike; each gives its own distribution.
 */
export function runsText(
  r: { repetitions: number; variesAcrossRepeats: boolean; dependsOnTiming: boolean },
  fullRuns: number,
  distribution: () => string,
  what: 'cell' | 'hazard row' = 'cell',
): string | null {
  // Several runs of a row that depends on timing show what they gave, also when they all agreed.
  if (r.variesAcrossRepeats || (r.dependsOnTiming && r.repetitions > 1))
    return `over ${r.repetitions} runs: ${distribution()}`;
  if (r.dependsOnTiming && r.repetitions === 1)
    return `one run of a ${what} whose outcome depends on timing: --full runs it ${fullRuns} times and shows how often each outcome comes`;
  return null;
}

/** A crash cell's runsText, its distribution by where each resume started and what repeated. */
export function timingText(
  r: Pick<ResultRow, 'outcomes' | 'repetitions' | 'variesAcrossRepeats' | 'dependsOnTiming'>,
  fullRuns: number,
): string | null {
  const text = runsText(r, fullRuns, () => distributionText(r));
  // One run's distribution is not printed, so what the store held at its kill is said here.
  const held = r.repetitions === 1 ? r.outcomes[0]?.atTheKill : undefined;
  return held ? [`at the kill: ${held}`, text].filter(Boolean).join('; ') : text;
}

const KIND_WORDS: Record<string, string> = {
  web: 'page fetches',
  model: 'paid model calls',
  tracker: 'tracker notes',
  mail: 'mails',
};

/**
 * A one-line account of what the rows of one crash point showed, computed, never canned: over
 * every repetition of every row (a row that repeated in 1 of 3 runs is named with "1/3").
 */
export function observedLine(rows: ResultRow[]): string {
  const named = (pred: (o: Outcome) => boolean) =>
    rows.flatMap((r) => {
      const n = r.outcomes.filter(pred).reduce((a, o) => a + o.count, 0);
      if (!n) return [];
      return [n === r.repetitions ? rowLabel(r) : `${rowLabel(r)} (${n}/${r.repetitions})`];
    });
  const parts: string[] = [];
  const effect = named((o) => o.sideEffectDuplicated);
  if (effect.length) parts.push(`side effect doubled in ${effect.join(', ')}`);
  for (const kind of ['web', 'model', 'tracker', 'mail']) {
    const which = named((o) => (o.repeatedByKind[kind as keyof Outcome['repeatedByKind']] ?? 0) > 0);
    if (which.length) parts.push(`${KIND_WORDS[kind]} repeated in ${which.join(', ')}`);
  }
  const clean = named((o) => o.status === 'completed' && kindsText(o) === 'none');
  if (clean.length) parts.push(`nothing repeated in ${clean.join(', ')}`);
  const bad = named((o) => o.status !== 'completed');
  if (bad.length) parts.push(`did not complete: ${bad.join(', ')}`);
  return parts.length ? `seen: ${parts.join('; ')}.` : '';
}

/**
 * The lesson of a crash point, scoped to the rows it is about, and each documented departure with
 * the rows it covers and why (crash-expectations.ts): a lesson printed above a row never says what
 * that row does not do. Rows that depart without a documented reason are marked where they stand.
 */
export function lessonLines(point: CrashPointName, rows: ResultRow[]): string[] {
  const lesson = CRASH_POINTS[point].lesson;
  const byWhy = new Map<string, ResultRow[]>();
  for (const r of rows) if (r.deviation) byWhy.set(r.deviation, [...(byWhy.get(r.deviation) ?? []), r]);
  const ruled = rows.filter((r) => !r.deviation);
  const names = (rs: ResultRow[]) => rs.map(rowLabel).join(', ');
  const out: string[] = [];
  if (!byWhy.size) out.push(lesson);
  else if (ruled.length) out.push(`${names(ruled)}: ${lesson}`);
  for (const [why, rs] of byWhy) out.push(`${names(rs)}: ${why}`);
  return out;
}
