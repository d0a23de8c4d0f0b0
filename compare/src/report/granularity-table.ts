import { GRANULARITY_INFO } from '@vendor-review/pipeline';
import { GRANULARITY_CRASH_POINTS } from '@vendor-review/conformance';
import { money, seconds, TABLE_WIDTH } from '../table.ts';
import type { Column, Medium, Row, Section } from './document.ts';
import { renderGranularityChart } from './granularity-chart.ts';
import {
  bytes,
  granularityPoints,
  ms,
  pointLabel,
  repeatedText,
  type GranularityPoint,
  type GranularityRow,
} from './granularity-rows.ts';
import { sectionHtml } from './render-html.ts';
import { sectionText } from './render-text.ts';
import type { RuntimeLook } from './svg.ts';

/**
 * The granularity suite as a report section, for the terminal, results.md and report.html: one
 * line per runtime and granularity, what its boundaries cost when nothing crashes (records
 * written, bytes stored, time between calls) beside what a crash early and late in the research
 * repeated, with a line that says what was seen, computed from the rows. report.html adds the
 * chart of the trade and where each granularity puts its boundaries.
 */
export const GRANULARITY_LESSON =
  'A boundary is a trade: what ran since the last one runs again after a crash, and every boundary is a write ' +
  'paid on every run. An early crash costs about the same at any node size; a late one repeats whatever the ' +
  'last boundary did not keep.';

const TEXT: readonly Medium[] = ['text'];
const PAGE: readonly Medium[] = ['markdown', 'html'];

const COLUMNS: Column[] = [
  { title: 'runtime / granularity', textTitle: 'runtime granularity', width: 20 },
  { title: 'boundaries', only: ['markdown'] },
  { title: 'records', width: 7, numeric: true },
  { title: 'stored', width: 9, numeric: true },
  { title: 'overhead', width: 8, numeric: true },
  { title: 'wall (world)', numeric: true, only: ['html'] },
  { title: 'early: repeated', width: 16 },
  { title: 'extra', width: 8, numeric: true },
  { title: 'late: repeated', width: 23 },
  { title: 'extra', width: 8, numeric: true },
  { title: 'recovery', width: 8, numeric: true },
];

function row(p: GranularityPoint): Row {
  const u = p.uncrashed;
  return {
    data: { runtime: p.runtime, granularity: p.granularity },
    cells: [
      { text: pointLabel(p), aside: p.variant },
      GRANULARITY_INFO[p.granularity].title,
      u?.durableRecords?.toString() ?? '—',
      bytes(u?.bytesStored ?? null),
      ms(u?.overheadMs ?? null),
      { text: `${ms(u?.wallMs ?? null)} (${ms(u?.worldMs ?? null)})`, class: 'cost' },
      repeatedText(p.early),
      p.early ? money(p.early.extraCostUsd) : '—',
      repeatedText(p.late),
      p.late ? money(p.late.extraCostUsd) : '—',
      seconds(p.late?.recoveryMs ?? null),
    ],
  };
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

export function granularitySection(
  rows: GranularityRow[],
  looks: readonly RuntimeLook[],
  o: { level?: 1 | 2 } = {},
): Section {
  const points = granularityPoints(rows);
  const seen = granularitySeen(rows);
  const variants = [...new Set(rows.map((r) => r.variant))].join(', ');
  const shown = [...new Set(points.map((p) => p.granularity))];
  const notes = rows.filter((r) => r.note).map((r) => `${r.cellId}: ${r.note}`);
  return {
    heading: 'Node size: what a crash repeats against what the boundaries cost',
    textHeading: `granularity — what a crash repeats against what the boundaries cost (${variants})`,
    id: 'granularity',
    level: o.level ?? 2,
    blocks: [
      { kind: 'paragraph', style: 'lesson', only: PAGE, text: GRANULARITY_LESSON },
      ...seen.map((text) => ({ kind: 'paragraph' as const, class: 'seen', only: ['html' as const], text })),
      { kind: 'chart', only: ['html'], html: renderGranularityChart(rows, looks) },
      { kind: 'table', table: { class: 'granularity', columns: COLUMNS, rows: points.map(row) } },
      { kind: 'paragraph', style: 'lesson', only: TEXT, text: GRANULARITY_LESSON },
      ...seen.map((text) => ({
        kind: 'paragraph' as const,
        style: 'note' as const,
        tone: 'muted' as const,
        only: TEXT,
        text,
      })),
      { kind: 'list', only: ['markdown'], items: seen },
      {
        kind: 'paragraph',
        style: 'note',
        tone: 'muted',
        only: TEXT,
        text: [
          'records: checkpoints or history events of the uncrashed run',
          'stored: bytes the runtime keeps for it',
          'overhead: its time between calls not spent in the world',
          `early: ${GRANULARITY_CRASH_POINTS.early.where}`,
          `late: ${GRANULARITY_CRASH_POINTS.late.where}`,
        ].join(' · '),
      },
      {
        kind: 'paragraph',
        class: 'seen',
        only: ['html'],
        text: `records: what the runtime keeps durable (checkpoints, history events, journal rows) for the uncrashed run, pre-approved so nobody's reply is timed · stored: what the runtime keeps for it · overhead: the time between its first and last call to the world that the world was not answering · early: ${GRANULARITY_CRASH_POINTS.early.where} · late: ${GRANULARITY_CRASH_POINTS.late.where}.`,
      },
      {
        kind: 'list',
        only: ['html'],
        items: shown.map((g) => `**${g}** (${GRANULARITY_INFO[g].title}): ${GRANULARITY_INFO[g].boundaries}`),
      },
      ...(notes.length ? [{ kind: 'list' as const, class: 'seen', only: ['html' as const], items: notes }] : []),
    ],
  };
}

/** The terminal's granularity block. */
export function renderGranularity(rows: GranularityRow[], o: { color: boolean; width?: number }): string {
  const width = Math.max(TABLE_WIDTH, o.width ?? TABLE_WIDTH);
  return sectionText(granularitySection(rows, []), { color: o.color, width }).join('\n');
}

/** report.html's granularity section, with the chart in the runtimes' colours. */
export function renderGranularitySection(rows: GranularityRow[], looks: readonly RuntimeLook[]): string {
  return sectionHtml(granularitySection(rows, looks));
}
