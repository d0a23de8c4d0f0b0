import { type Variant } from '@vendor-review/pipeline';
import { CRASH_POINT_NAMES } from '@vendor-review/instrument';
import {
  DEFAULT_HAZARDS,
  HAZARD_IDS,
  HAZARDS,
  harmSeverity,
  SEVERITIES,
  SEVERITY_TEXT,
  VARYING_REPEATS,
  worst,
  type Severity,
} from '@vendor-review/conformance';
import { kindsText, repeatedSummary, rowLabel } from '../table.ts';
import {
  crashRows,
  hazardRank,
  productionRows,
  type Outcome,
  type ProductionRow,
  type ResultRow,
  type Results,
} from './results.ts';
import { approverScoreLine } from './approver-inbox.ts';
import type { Cell, Column, Row, Section, Tone } from './document.ts';
import { esc } from './svg.ts';

/**
 * The whole comparison on one screen: every runtime × variant against every crash point and every
 * hazard, one cell each, coloured by the worst thing that happened there (severity.ts) and linked
 * to the row that says why. Built once from results.json, drawn by the report's renderers.
 */
export interface ScoreCell {
  /** null: nothing was judged (the hazard was skipped or could not run). */
  severity: Severity | null;
  word: string;
  /** Every row behind the cell, in words (several LangGraph durabilities share one naive cell). */
  detail: string;
  /** The anchor of the worst row in report.html. */
  anchor: string;
}

export interface ScoreLine {
  /** approver: the approver's inbox, uncrashed and killed while waiting (approver-inbox.ts). */
  kind: 'crash' | 'hazard' | 'approver';
  id: string;
  cells: (ScoreCell | null)[];
}

export interface Scorecard {
  columns: { runtime: string; variant: Variant; label: string }[];
  lines: ScoreLine[];
  /** The hazards this run left out, when it ran any: what the card does not answer. */
  hazardsLeftOut: string[];
}

export function cellAnchor(cellId: string): string {
  return `cell-${cellId.replace(/[^a-z0-9]+/gi, '-')}`;
}

export function hazardAnchor(r: Pick<ProductionRow, 'scenario' | 'runtime' | 'variant'>): string {
  return `hazard-${r.scenario}-${r.runtime}-${r.variant}`.replace(/[^a-z0-9-]+/gi, '-');
}

function outcomeSeverity(o: Outcome): Severity {
  return harmSeverity({ ...o, lost: o.status !== 'completed' });
}

const CRASH_WORD: Record<Severity, string> = {
  nothing: 'none',
  read: 'read',
  paid: 'paid',
  effect: 'twice',
  lost: 'lost',
};

function crashCell(rows: ResultRow[]): ScoreCell {
  const judged = rows.map((r) => ({ r, severity: worst(r.outcomes.map(outcomeSeverity)) }));
  const top = judged.reduce((a, b) => (SEVERITIES.indexOf(b.severity) > SEVERITIES.indexOf(a.severity) ? b : a));
  const word = top.severity === 'lost' ? top.r.status : CRASH_WORD[top.severity];
  return {
    severity: top.severity,
    word,
    detail: judged
      .map(
        ({ r, severity }) => `${rowLabel(r)}: ${SEVERITY_TEXT[severity]} (${repeatedSummary(r) || 'nothing repeated'})`,
      )
      .join('\n'),
    anchor: cellAnchor(top.r.cellId),
  };
}

/** "model+3 · effect duplicated": what a hazard run cost beyond its verdict, in the scorecard's hover. */
function costText(o: ProductionRow['outcomes'][number]): string {
  const kinds = kindsText(o);
  return [
    kinds === 'none' ? 'nothing repeated' : `repeated ${kinds}`,
    ...(o.sideEffectDuplicated ? ['an effect duplicated'] : []),
  ].join(', ');
}

/**
 * A hazard's cell: its verdict's word, coloured by the worst outcome measured in the row, over
 * every run of it: what the verdict means on the scale, or what the run cost (a paid call
 * repeated, an effect duplicated), whichever is worse.
 */
function hazardCell(r: ProductionRow): ScoreCell {
  const ranks = r.outcomes.map(hazardRank).filter((i) => i >= 0);
  const severity = r.status === 'ran' && ranks.length ? SEVERITIES[Math.max(...ranks)]! : null;
  const runs =
    r.repetitions > 1
      ? r.outcomes.map((o) => `${o.verdict ?? o.status} (${costText(o)}) ${o.count}/${r.repetitions}`).join(' · ')
      : r.outcomes[0]
        ? costText(r.outcomes[0])
        : '';
  const timing =
    r.dependsOnTiming && r.repetitions === 1
      ? `; one run of a row whose outcome depends on timing (--full runs it ${VARYING_REPEATS} times)`
      : '';
  return {
    severity,
    word: r.status === 'ran' ? (r.verdict ?? '?') : r.status,
    detail: `${r.title}: ${r.status === 'ran' ? (r.verdictText ?? r.verdict) : (r.note ?? r.status)}${runs ? `. Measured: ${runs}` : ''}${severity ? `; colour: ${SEVERITY_TEXT[severity]}` : ''}${timing}`,
    anchor: hazardAnchor(r),
  };
}

export function buildScorecard(results: Results): Scorecard {
  const crash = crashRows(results).filter((r) => r.crashPoint !== null);
  const hazards = productionRows(results);
  const present = (runtime: string, variant: Variant) =>
    crash.some((r) => r.runtime === runtime && r.variant === variant) ||
    hazards.some((r) => r.runtime === runtime && r.variant === variant);
  const columns = results.meta.runtimes.flatMap((rt) =>
    (['naive', 'hardened'] as const)
      .filter((v) => present(rt.name, v))
      .map((variant) => ({ runtime: rt.name, variant, label: `${rt.label} ${variant}` })),
  );
  const lines: ScoreLine[] = [];
  for (const point of CRASH_POINT_NAMES) {
    const mine = crash.filter((r) => r.crashPoint === point);
    if (!mine.length) continue;
    lines.push({
      kind: 'crash',
      id: point,
      cells: columns.map((c) => {
        const rows = mine.filter((r) => r.runtime === c.runtime && r.variant === c.variant);
        return rows.length ? crashCell(rows) : null;
      }),
    });
  }
  const inbox = approverScoreLine(crashRows(results), columns);
  if (inbox) lines.push(inbox);
  for (const id of HAZARD_IDS) {
    const mine = hazards.filter((r) => r.scenario === id);
    if (!mine.length) continue;
    lines.push({
      kind: 'hazard',
      id,
      cells: columns.map((c) => {
        const r = mine.find((x) => x.runtime === c.runtime && x.variant === c.variant);
        return r ? hazardCell(r) : null;
      }),
    });
  }
  const ran = new Set(hazards.map((r) => r.scenario));
  return { columns, lines, hazardsLeftOut: ran.size ? HAZARD_IDS.filter((id) => !ran.has(id)) : [] };
}

/** What the card leaves out, and the command that shows it: the default answers each lesson once. */
function leftOutNote(left: string[]): string | null {
  if (!left.length) return null;
  const onePerLesson =
    left.length === HAZARD_IDS.length - DEFAULT_HAZARDS.length &&
    left.every((id) => !DEFAULT_HAZARDS.includes(id as never));
  const what = onePerLesson
    ? `One hazard per lesson, the one whose rows show it most sharply (${DEFAULT_HAZARDS.length} of ${HAZARD_IDS.length}).`
    : `${HAZARD_IDS.length - left.length} of ${HAZARD_IDS.length} hazards ran.`;
  // An opt-in hazard has rows only for the runtimes that take part in it, so --full may not show it.
  const named = left.map((id) => ('optIn' in HAZARDS[id as keyof typeof HAZARDS] ? `${id} (opt-in)` : id));
  return `${what} Not run: ${named.join(', ')}; \`pnpm compare --full\` runs every hazard (an opt-in one for the runtimes that take part in it), \`--hazard <id>[,<id>…]\` the ones named.`;
}

const lineTitle = (l: ScoreLine) =>
  l.kind === 'crash'
    ? `crash: ${l.id}`
    : l.kind === 'approver'
      ? "approver's inbox"
      : HAZARDS[l.id as keyof typeof HAZARDS].title;

/**
 * Twelve columns of verdicts share what the line titles leave of the page, so a word such as
 * `duplicated-effects` breaks at its hyphens (never inside a word while a hyphen or a space will
 * do: `overflow-wrap` only as the last resort) and is set a little smaller on a narrower screen;
 * normal weight, since a bold word is a fifth wider and the cell's colour already says how bad
 * (white on the red of a run lost, which the red of a bad tone would otherwise write it in).
 */
export const SCORECARD_CSS = `
table.scorecard { table-layout: fixed; } table.scorecard th, table.scorecard td { text-align: center; padding: 3px 1px; overflow-wrap: anywhere; }
table.scorecard th.line, table.scorecard td.line { text-align: left; width: 20%; white-space: normal; overflow-wrap: normal; }
table.scorecard th:not(.line) { font-size: 11px; line-height: 1.3; }
table.scorecard td a { display: block; color: inherit; text-decoration: none; font-size: 11px; font-weight: normal; line-height: 1.3; }
@media (max-width: 1199px) {
  table.scorecard th.line, table.scorecard td.line { width: 17%; }
  table.scorecard th:not(.line), table.scorecard td a { font-size: 10.5px; }
}
.sev-nothing { background: #dcfce7; } .sev-read { background: #ecfccb; } .sev-paid { background: #fef3c7; }
.sev-effect { background: #fdba74; } .sev-lost { background: #f87171; color: #fff; } .sev-none { background: #f1f5f9; color: var(--muted); }
table.scorecard td.sev-lost { color: #fff; }
.scale span { display: inline-block; padding: 1px 8px; margin: 0 6px 4px 0; border-radius: 3px; font-size: 12px; }
`;

/** The terminal has no background colours: the worst outcomes in red, a paid repeat in amber. */
const TONE: Record<Severity, Tone> = { nothing: 'ok', read: 'ok', paid: 'warn', effect: 'bad', lost: 'bad' };

/**
 * The scorecard as a section: in HTML a coloured grid whose cells link to their rows; in the
 * terminal and in Markdown one short word per cell (the terminal's columns narrow enough for ten
 * of them on a laptop's screen).
 */
export function scorecardSection(card: Scorecard, o: { width?: number } = {}): Section | null {
  if (!card.lines.length) return null;
  const width = o.width ?? 120;
  const words = card.lines.flatMap((l) => l.cells.map((c) => c?.word.length ?? 0));
  const short = card.columns.map((c) => c.label.replace(/ hardened$/, ' hard'));
  const cellW = Math.max(7, ...short.map((l) => l.length), Math.min(11, Math.max(...words)));
  const lineW = Math.max(24, width - (cellW + 1) * card.columns.length - 1);
  const columns: Column[] = [
    { title: 'crash point or hazard', textTitle: 'at a glance', class: 'line', width: lineW },
    ...card.columns.map((c, i) => ({ title: c.label, textTitle: short[i]!, width: cellW })),
  ];
  const rows: Row[] = card.lines.map((l) => ({
    data: { line: l.id },
    cells: [
      l.kind === 'crash' ? l.id : lineTitle(l),
      ...l.cells.map((c): Cell =>
        c
          ? {
              text: c.word,
              class: `sev-${c.severity ?? 'none'}`,
              href: `#${c.anchor}`,
              hover: c.detail,
              ...(c.severity ? { tone: TONE[c.severity] } : {}),
            }
          : { text: '—', class: 'sev-none' },
      ),
    ],
  }));
  const leftOut = leftOutNote(card.hazardsLeftOut);
  const scale = SEVERITIES.map((s) => `<span class="sev-${s}">${esc(SEVERITY_TEXT[s])}</span>`).join('');
  return {
    heading: 'At a glance',
    id: 'scorecard',
    blocks: [
      { kind: 'html', html: `<p class="scale">${scale}</p>` },
      { kind: 'table', table: { class: 'scorecard', columns, rows } },
      {
        kind: 'paragraph',
        style: 'note',
        tone: 'muted',
        only: ['text', 'markdown'],
        text: `A crash point's cell says what repeated (${SEVERITIES.map((s) => CRASH_WORD[s]).join(' · ')}), a hazard's its verdict; the colour is the worst outcome measured in the row, over all its runs (for a hazard, the worse of its verdict and what it cost): ${SEVERITIES.map((s) => SEVERITY_TEXT[s]).join(' < ')}.`,
      },
      ...(leftOut ? [{ kind: 'paragraph' as const, style: 'note' as const, text: leftOut }] : []),
    ],
  };
}
