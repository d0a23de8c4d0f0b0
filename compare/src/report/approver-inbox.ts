import { WAITING_POINT, type Severity } from '@vendor-review/conformance';
import type { Variant } from '@vendor-review/pipeline';
import { rowLabel } from '../table.ts';
import type { Cell, Column, Section, Tone } from './document.ts';
import type { ResultRow } from './results.ts';

/**
 * The approver's inbox, side by side: every runtime and variant tells the approver that a review
 * waits, then waits; what the inbox holds after a run with no crash, and after one whose worker was
 * killed while it waited, shows where each runtime's unit of replay lies. Read from the baseline and
 * `awaiting-approval` rows the crash suite already runs.
 */
export interface InboxLine {
  runtime: string;
  variant: Variant;
  label: string;
  noCrash: ResultRow | null;
  waiting: ResultRow | null;
}

/** One line per runtime, variant and durability that has a baseline or a kill while waiting, in the rows' order. */
export function inboxLines(rows: readonly ResultRow[]): InboxLine[] {
  const lines = new Map<string, InboxLine>();
  for (const r of rows) {
    const waiting = r.crashPoint === WAITING_POINT && r.stop !== 'term';
    if (r.crashPoint !== null && !waiting) continue;
    const variant = r.variant === 'baseline' ? r.baselineOf : r.variant;
    if (!variant) continue;
    const key = `${r.runtime}/${variant}/${r.durability ?? '-'}`;
    const line = lines.get(key) ?? {
      runtime: r.runtime,
      variant,
      label: rowLabel({ runtimeLabel: r.runtimeLabel, variant, durability: r.durability, baselineOf: null }),
      noCrash: null,
      waiting: null,
    };
    if (waiting) line.waiting = r;
    else line.noCrash = r;
    lines.set(key, line);
  }
  return [...lines.values()];
}

/** "2 (asked 2)": what the inbox kept, and how often it was asked where a key kept it from keeping more. */
export function inboxText(r: ResultRow | null): string {
  if (!r) return '—';
  const { asked, inbox } = r.approver;
  return asked === inbox ? String(inbox) : `${inbox} (asked ${asked})`;
}

/** Told more than once: a person's second notification; not what the runtime must show: red. */
export function inboxTone(r: ResultRow | null): Tone | undefined {
  if (!r || r.status !== 'completed') return undefined;
  if (r.approver.inbox !== r.approver.expected) return 'bad';
  return r.approver.inbox > 1 ? 'warn' : 'ok';
}

const cell = (r: ResultRow | null): Cell => {
  const tone = inboxTone(r);
  return {
    text: inboxText(r),
    ...(tone ? { tone } : {}),
    ...(tone === 'bad' ? { strong: true } : {}),
  };
};

export const APPROVER_INBOX_ID = 'approver-inbox';

/**
 * The scorecard's line (in its shape, without importing it): per column, how often the approver was
 * told in the fullest of its runs; a person told twice is an effect the world kept twice.
 */
export function approverScoreLine(
  rows: readonly ResultRow[],
  columns: readonly { runtime: string; variant: Variant }[],
): {
  kind: 'approver';
  id: string;
  cells: ({ severity: Severity; word: string; detail: string; anchor: string } | null)[];
} | null {
  const lines = inboxLines(rows);
  if (!lines.length) return null;
  return {
    kind: 'approver',
    id: APPROVER_INBOX_ID,
    cells: columns.map((c) => {
      const mine = lines.filter((l) => l.runtime === c.runtime && l.variant === c.variant);
      const held = mine.flatMap((l) => [l.noCrash, l.waiting]).flatMap((r) => (r ? [r.approver.inbox] : []));
      if (!held.length) return null;
      const most = Math.max(...held);
      return {
        severity: most > 1 ? 'effect' : 'nothing',
        word: most === 1 ? 'once' : most === 0 ? 'never' : `${most}×`,
        detail: mine
          .map((l) => `${l.label}: no crash ${inboxText(l.noCrash)}, killed while waiting ${inboxText(l.waiting)}`)
          .join('\n'),
        anchor: APPROVER_INBOX_ID,
      };
    }),
  };
}

const RECORDED = 'a recorded step before the wait: a resume hands back its result';

export function approverInboxSection(rows: readonly ResultRow[]): Section | null {
  const lines = inboxLines(rows);
  if (!lines.length) return null;
  const columns: Column[] = [
    { title: 'runtime / variant', width: 22 },
    { title: 'no crash', numeric: true, width: 10 },
    { title: 'killed while waiting', textTitle: 'killed waiting', numeric: true, width: 15 },
    { title: 'why', wrap: true, width: 70 },
  ];
  return {
    heading: "The approver's inbox: where each runtime's unit of replay lies",
    textHeading: "the approver's inbox — how often the approver was told a review waits",
    id: APPROVER_INBOX_ID,
    blocks: [
      {
        kind: 'paragraph',
        style: 'lesson',
        text: 'Every run tells the approver that a review waits, then waits. Where the notification is a recorded unit of its own (an activity, a step, a `ctx.run`, a task, a node of its own), a resume hands back its result and the approver is told once, crash or no crash; where it sits in a LangGraph node before `interrupt()`, the node runs again from its top on every resume, and the approver is told again with no crash at all. Not counted as a repeat in the rows above: it shows where the unit of replay lies, not what a crash cost.',
      },
      {
        kind: 'table',
        table: {
          class: 'approver-inbox',
          columns,
          rows: lines.map((l) => ({
            data: { runtime: l.runtime },
            cells: [l.label, cell(l.noCrash), cell(l.waiting), (l.waiting ?? l.noCrash)?.approver.why ?? RECORDED],
          })),
        },
      },
    ],
  };
}
