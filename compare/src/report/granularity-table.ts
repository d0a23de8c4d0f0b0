import { GRANULARITY_INFO } from '@vendor-review/pipeline';
import { GRANULARITY_CRASH_POINTS } from '@vendor-review/conformance';
import { fit, money, seconds, TABLE_WIDTH, wrap } from '../table.ts';
import { granularityPoints, type GranularityPoint, type GranularityRow } from './granularity-rows.ts';

/**
 * The granularity suite in the terminal and in results.md: one line per runtime and granularity,
 * what its boundaries cost when nothing crashes (records written, bytes stored, time between calls)
 * beside what a crash early and late in the research repeated, with a line that says what was
 * seen, computed from the rows.
 */
export const GRANULARITY_LESSON =
  'A boundary is a trade: what ran since the last one runs again after a crash, and every boundary is a write ' +
  'paid on every run. An early crash costs about the same at any node size; a late one repeats whatever the ' +
  'last boundary did not keep.';

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

const COLUMNS = [
  { title: 'runtime granularity', width: 20 },
  { title: 'records', width: 7, right: true },
  { title: 'stored', width: 9, right: true },
  { title: 'overhead', width: 8, right: true },
  { title: 'early: repeated', width: 16 },
  { title: 'extra', width: 8, right: true },
  { title: 'late: repeated', width: 23 },
  { title: 'extra', width: 8, right: true },
  { title: 'recovery', width: 8, right: true },
] as const;

function cells(p: GranularityPoint): string[] {
  return [
    pointLabel(p),
    p.uncrashed?.durableRecords?.toString() ?? '—',
    bytes(p.uncrashed?.bytesStored ?? null),
    ms(p.uncrashed?.overheadMs ?? null),
    repeatedText(p.early),
    p.early ? money(p.early.extraCostUsd) : '—',
    repeatedText(p.late),
    p.late ? money(p.late.extraCostUsd) : '—',
    seconds(p.late?.recoveryMs ?? null),
  ];
}

/** What the rows show, in one sentence per runtime: computed from them, never canned. */
export function granularitySeen(rows: GranularityRow[]): string[] {
  const points = granularityPoints(rows);
  const out: string[] = [];
  for (const runtime of [...new Set(points.map((p) => p.runtime))]) {
    const mine = points.filter((p) => p.runtime === runtime && p.uncrashed && p.late);
    if (mine.length < 2) continue;
    const list = (f: (p: GranularityPoint) => string) => mine.map((p) => `${p.granularity} ${f(p)}`).join(', ');
    out.push(
      `seen in ${mine[0]!.runtimeLabel}: a late crash repeated ` +
        `${list((p) => String(p.late!.repeatedModelCalls ?? '?'))} model call(s); ` +
        `uncrashed, the run wrote ${list((p) => String(p.uncrashed!.durableRecords ?? '?'))} durable records ` +
        `and spent ${list((p) => ms(p.uncrashed!.overheadMs))} between its calls.`,
    );
  }
  return out;
}

export function renderGranularity(rows: GranularityRow[], opts: { color: boolean; width?: number }): string {
  const width = Math.max(TABLE_WIDTH, opts.width ?? TABLE_WIDTH);
  const paint = (code: string, text: string) => (opts.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const line = (values: string[]) =>
    COLUMNS.map((c, i) => fit(values[i] ?? '', c.width, 'right' in c ? 'right' : undefined))
      .join(' ')
      .replace(/\s+$/, '');
  const variants = [...new Set(rows.map((r) => r.variant))].join(', ');
  const out = [
    paint('1;36', `granularity — what a crash repeats against what the boundaries cost (${variants})`),
    paint('1', line(COLUMNS.map((c) => c.title))),
  ];
  for (const p of granularityPoints(rows)) out.push(line(cells(p)));
  for (const l of wrap(GRANULARITY_LESSON, width, '  ▸ ')) out.push(paint('2', l));
  for (const s of granularitySeen(rows)) for (const l of wrap(s, width, '    ')) out.push(paint('2', l));
  const legend = [
    'records: checkpoints or history events of the uncrashed run',
    'stored: bytes the runtime keeps for it',
    'overhead: its time between calls not spent in the world',
    `early: ${GRANULARITY_CRASH_POINTS.early.where}`,
    `late: ${GRANULARITY_CRASH_POINTS.late.where}`,
  ].join(' · ');
  for (const l of wrap(legend, width, '')) out.push(paint('2', l));
  return out.join('\n');
}

function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function granularityMarkdown(rows: GranularityRow[]): string[] {
  const out = [
    '# Node size: what a crash repeats against what the boundaries cost',
    '',
    GRANULARITY_LESSON,
    '',
    '| runtime / granularity | boundaries | records | stored | overhead ' +
      '| early: repeated | extra | late: repeated | extra | recovery |',
    '|---|---|--:|--:|--:|---|--:|---|--:|--:|',
  ];
  for (const p of granularityPoints(rows)) {
    const [label, ...rest] = cells(p);
    out.push(`| ${[label!, GRANULARITY_INFO[p.granularity].title, ...rest].map(mdCell).join(' | ')} |`);
  }
  out.push('', ...granularitySeen(rows).map((s) => `- ${s}`), '');
  return out;
}
