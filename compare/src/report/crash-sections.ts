import { CRASH_POINT_NAMES, type CrashPointName } from '@vendor-review/instrument';
import { CRASH_POINTS, VARYING_REPEATS } from '@vendor-review/conformance';
import type { CellObservation } from '@vendor-review/conformance';
import {
  columnWidths,
  timingText,
  extraModelText,
  lessonLines,
  money,
  observedLine,
  repeatedSummary,
  rowLabel,
  seconds,
  TABLE_WIDTH,
} from '../table.ts';
import { approverInboxSection } from './approver-inbox.ts';
import { cellCard, TIMELINE_LEGEND } from './cell-card.ts';
import { renderCostChart } from './chart.ts';
import type { Block, Cell, Column, Row, Section } from './document.ts';
import { labelsLine } from './meta-lines.ts';
import type { ResultRow, ResultsMeta } from './results.ts';
import { cellAnchor } from './scorecard.ts';
import { esc } from './svg.ts';

/**
 * The crash cells as report sections, one per crash point (the baselines first): its lesson, its
 * rows, what they showed, and in HTML each row's card with its timeline. The terminal, results.md
 * and report.html draw these same sections.
 */
export const CRASH_CSS = `
tr.varies td { color: var(--warn); font-size: 12px; border-bottom: none; }
td:first-child { white-space: nowrap; }
.seen { color: var(--muted); font-size: 12.5px; margin: -4px 0 10px; }
`;

const PAGE = ['markdown', 'html'] as const;
const TEXT = ['text'] as const;

/** The terminal's columns are narrower (120 in all) and join the extra model calls with their cost. */
function columns(widths: number[]): Column[] {
  const w = (i: number) => ({ width: widths[i]! });
  return [
    { title: 'runtime / variant', ...w(0) },
    { title: 'last durable', ...w(1) },
    { title: 'first after resume', ...w(2) },
    { title: 'repeated', ...w(3) },
    { title: 'extra model', only: TEXT, ...w(4) },
    { title: 'extra model calls', numeric: true, only: PAGE },
    { title: 'extra tokens', numeric: true, only: PAGE },
    { title: 'extra cost', numeric: true, only: PAGE },
    { title: 'state dup.', textTitle: 'state', ...w(5) },
    { title: 'effect dup.', textTitle: 'effect', ...w(6) },
    { title: 'recovery', numeric: true, ...w(7) },
    { title: '= baseline', textTitle: '=base', ...w(8) },
    { title: 'status', ...w(9) },
  ];
}
const PAGE_COLUMNS = 12;

const yes = (v: boolean): Cell => (v ? { text: 'yes', tone: 'bad', strong: true } : { text: 'no', tone: 'ok' });

function crashRow(r: ResultRow): Row {
  // A lost run did less than the baseline: no "extra" to show.
  const base = r.variant === 'baseline' || r.extraModelCalls < 0;
  const repeated = repeatedSummary(r);
  const timing = timingText(r, VARYING_REPEATS);
  const varies = timing ? `↳ ${timing}` : null;
  return {
    cells: [
      { text: rowLabel(r), href: `#${cellAnchor(r.cellId)}` },
      { text: r.lastDurableShort, hover: r.lastDurable },
      { text: r.firstAfterResumeShort, hover: r.firstAfterResume },
      { text: repeated, tone: repeated === 'none' ? 'ok' : 'warn', hover: r.repeatedOperations.join('\n') },
      { text: extraModelText(r), ...(r.extraModelCalls > 0 && !base ? { tone: 'warn' as const } : {}) },
      base ? '—' : String(r.extraModelCalls),
      base ? '—' : String(r.extraTokens),
      base ? '—' : money(r.extraCostUsd),
      r.variant === 'baseline' ? '—' : yes(r.stateDuplicated),
      r.variant === 'baseline' ? '—' : yes(r.sideEffectDuplicated),
      seconds(r.recoveryMs),
      r.finalMatchesBaseline ? { text: 'yes', tone: 'ok' } : { text: 'no', tone: 'bad', strong: true },
      r.status === 'completed'
        ? { text: 'completed', tone: 'ok' }
        : { text: r.status, tone: r.status === 'error' ? 'bad' : 'warn', strong: true },
    ],
    textAfter: [
      ...(varies ? [{ text: varies, tone: 'warn' as const }] : []),
      ...(r.violations.length
        ? [{ text: `✗ not what this crash point must show: ${r.violations.join('; ')}`, tone: 'bad' as const }]
        : []),
    ],
    ...(varies
      ? { htmlAfter: `<tr class="varies"><td></td><td colspan="${PAGE_COLUMNS - 1}">${esc(varies)}</td></tr>` }
      : {}),
  };
}

export interface CrashSectionsOptions {
  /** The cards' timelines, by cell (the first repetition's). */
  observations?: readonly CellObservation[];
  /** Terminal columns: the table never goes below TABLE_WIDTH and uses more for full labels. */
  width?: number;
}

export function crashSections(rows: ResultRow[], o: CrashSectionsOptions = {}): Section[] {
  const cols = columns(columnWidths(rows, Math.max(TABLE_WIDTH, o.width ?? TABLE_WIDTH)));
  const obsOf = new Map<string, CellObservation>();
  for (const x of o.observations ?? [])
    if (!obsOf.has(x.scenario.id) || x.repetition === 0) obsOf.set(x.scenario.id, x);
  let first = true;
  const table = (block: ResultRow[]): Block => {
    const head = first;
    first = false;
    return { kind: 'table', table: { class: 'crash', columns: cols, rows: block.map(crashRow), head } };
  };
  const cards = (block: ResultRow[]): Block => ({
    kind: 'html',
    html: block.map((r) => cellCard(r, obsOf.get(r.cellId))).join(''),
  });
  const sections: Section[] = [];
  const baselines = rows.filter((r) => r.crashPoint === null);
  if (baselines.length)
    sections.push({
      heading: 'No crash: the baselines',
      textHeading: 'no crash — the baselines every row below is compared with',
      id: 'baselines',
      blocks: [
        table(baselines),
        {
          kind: 'paragraph',
          class: 'seen',
          only: ['html'],
          text: 'Every crashed cell is compared with the baseline of its runtime and variant.',
        },
        cards(baselines),
      ],
    });
  for (const p of CRASH_POINT_NAMES as readonly CrashPointName[]) {
    const block = rows.filter((r) => r.crashPoint === p);
    if (block.length) sections.push(crashPointSection(p, block, table(block), cards(block)));
  }
  return sections;
}

function crashPointSection(p: CrashPointName, block: ResultRow[], table: Block, cards: Block): Section {
  const seen = observedLine(block);
  const notes = block
    .filter((r) => r.note || r.link || timingText(r, VARYING_REPEATS) || r.violations.length)
    .map(
      (r) =>
        `${rowLabel(r)}: ${[
          r.variesAcrossRepeats ? `varied ${timingText(r, VARYING_REPEATS)}` : timingText(r, VARYING_REPEATS),
          r.violations.length && `**not what this crash point must show**: ${r.violations.join('; ')}`,
          r.note,
          r.link,
        ]
          .filter(Boolean)
          .join(' — ')}`,
    );
  const lessons = (only: readonly ('text' | 'markdown' | 'html')[]): Block[] =>
    lessonLines(p, block).map((text) => ({ kind: 'paragraph', style: 'lesson', text, only }));
  return {
    heading: `${p} — ${CRASH_POINTS[p].where}`,
    id: p,
    blocks: [
      ...lessons(PAGE),
      table,
      // In the terminal the lesson closes the block, under the rows it speaks of.
      ...lessons(TEXT),
      ...(seen ? [{ kind: 'paragraph' as const, style: 'note' as const, tone: 'muted' as const, text: seen }] : []),
      ...(notes.length ? [{ kind: 'list' as const, only: ['markdown' as const], items: notes }] : []),
      cards,
    ],
  };
}

/** The terminal's last lines under the crash table: the count of its cells by status, and its legend. */
export function crashSummarySection(rows: ResultRow[], o: { wallTimeMs?: number; labels?: string }): Section {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const summary = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
  return {
    only: TEXT,
    blocks: [
      {
        kind: 'paragraph',
        text: `${rows.length} cells: ${summary}${o.wallTimeMs !== undefined ? ` · wall time ${seconds(o.wallTimeMs)}` : ''}`,
      },
      {
        kind: 'paragraph',
        tone: 'muted',
        text:
          "state / effect: duplicated in the run's state / in the outside world · recovery: crash → first progress by worker B · =base: final review equals the uncrashed baseline · ↳ a cell whose outcome depends on timing: how its runs disagreed, or that it ran once · $? the model's price is unknown" +
          (o.labels ? ` · ${o.labels}` : ''),
      },
    ],
  };
}

const HTML = ['html'] as const;

/**
 * The crash suite's part of the report: in HTML what a cell is and the cost chart first; then
 * every crash point's section, each cell's card and timeline in HTML; then the summary.
 */
export function crashReport(
  rows: ResultRow[],
  o: { meta: ResultsMeta; width: number; observations: readonly CellObservation[] },
): Section[] {
  if (!rows.length) return [];
  const crashed = rows.filter((r) => r.crashPoint !== null);
  return [
    {
      only: HTML,
      blocks: [
        {
          kind: 'paragraph' as const,
          text: 'Each cell ran one review on a fresh business run. Worker A (a real process) was killed with SIGKILL at the named crash point, worker B (a new process) resumed the run. Every number comes from outside the workers: the simulated world\'s ledger (what was called, how often, at what cost) and the runtime\'s durable record (its checkpoints, history or step journal). "Repeated" means executed more often than in the uncrashed baseline of the same runtime and variant.',
        },
      ],
    },
    ...(crashed.length
      ? [
          {
            heading: 'Extra model cost per crash point',
            id: 'cost',
            only: HTML,
            blocks: [{ kind: 'chart' as const, html: renderCostChart(rows, o.meta.runtimes) }],
          },
        ]
      : []),
    {
      heading: "Crash points, and each cell's timeline",
      id: 'timelines',
      only: HTML,
      blocks: [{ kind: 'html' as const, html: TIMELINE_LEGEND }],
    },
    ...crashSections(rows, { observations: o.observations, width: o.width }),
    ...[approverInboxSection(rows)].filter((s) => s !== null),
    crashSummarySection(rows, { wallTimeMs: o.meta.wallTimeMs, labels: labelsLine(o.meta) }),
  ];
}
