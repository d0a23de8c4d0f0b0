import { CRASH_POINTS, CRASH_POINT_NAMES } from '@vendor-review/pipeline/pure';
import { distributionText, lessonLines, money, observedLine, repeatedSummary, rowLabel, seconds } from '../table.ts';
import type { Block, Cell, Column, ReportDocument, Row, Section } from './document.ts';
import { granularitySection } from './granularity-table.ts';
import { labelsLine, runtimesTitle, versionsLine } from './meta-lines.ts';
import { productionSections } from './production-table.ts';
import { crashRows, granularityRows, productionRows, type ResultRow, type Results } from './results.ts';

/**
 * results.md as a report document: the crash cells by crash point (the same table as the
 * terminal), the production hazards and the granularity suite, for a pull request or a wiki page.
 */
const COLUMNS: Column[] = [
  { title: 'runtime / variant' },
  { title: 'last durable' },
  { title: 'first after resume' },
  { title: 'repeated' },
  { title: 'extra model calls', numeric: true },
  { title: 'extra tokens', numeric: true },
  { title: 'extra cost', numeric: true },
  { title: 'state dup.' },
  { title: 'effect dup.' },
  { title: 'recovery', numeric: true },
  { title: '= baseline' },
  { title: 'status' },
];

const yes = (v: boolean): Cell => (v ? { text: 'yes', strong: true } : { text: 'no' });

function crashRow(r: ResultRow): Row {
  // A lost run did less than the baseline: no "extra" to show.
  const base = r.variant === 'baseline' || r.extraModelCalls < 0;
  return {
    cells: [
      rowLabel(r),
      r.lastDurableShort,
      r.firstAfterResumeShort,
      repeatedSummary(r),
      base ? '—' : String(r.extraModelCalls),
      base ? '—' : String(r.extraTokens),
      base ? '—' : money(r.extraCostUsd),
      base ? '—' : yes(r.stateDuplicated),
      base ? '—' : yes(r.sideEffectDuplicated),
      seconds(r.recoveryMs),
      r.finalMatchesBaseline ? 'yes' : { text: 'no', strong: true },
      r.status === 'completed' ? 'completed' : { text: r.status, strong: true },
    ],
  };
}

const table = (rows: ResultRow[]): Block => ({ kind: 'table', table: { columns: COLUMNS, rows: rows.map(crashRow) } });

function crashPointSection(p: (typeof CRASH_POINT_NAMES)[number], block: ResultRow[]): Section {
  const seen = observedLine(block);
  const notes = block
    .filter((r) => r.note || r.link || r.variesAcrossRepeats || r.violations.length)
    .map(
      (r) =>
        `${rowLabel(r)}: ${[
          r.variesAcrossRepeats && `varied over ${r.repetitions} runs: ${distributionText(r)}`,
          r.violations.length && `**not what this crash point must show**: ${r.violations.join('; ')}`,
          r.note,
          r.link,
        ]
          .filter(Boolean)
          .join(' — ')}`,
    );
  return {
    heading: p,
    blocks: [
      { kind: 'paragraph', text: `*${CRASH_POINTS[p].where}.*` },
      { kind: 'list', items: lessonLines(p, block) },
      table(block),
      ...(seen ? [{ kind: 'paragraph' as const, text: seen }] : []),
      ...(notes.length ? [{ kind: 'list' as const, items: notes }] : []),
    ],
  };
}

export function resultsDocument(results: Results): ReportDocument {
  const { meta } = results;
  const rows = crashRows(results);
  const production = productionRows(results);
  const granular = granularityRows(results);
  const baselines = rows.filter((r) => r.crashPoint === null);
  const listed = (names: string[]) => (names.length ? names.map((s) => `\`${s}\``).join(', ') : 'none');
  return {
    title: `Crash comparison: ${runtimesTitle(meta)}`,
    meta: [
      `Wall time ${seconds(meta.wallTimeMs)} · ${rows.length} cells · started ${meta.startedAt}`,
      `Versions: ${versionsLine(meta)}.`,
      `Infrastructure: world ${meta.infrastructure.world}; model ${meta.infrastructure.model}; PostgreSQL ${meta.infrastructure.postgres}; Temporal ${meta.infrastructure.temporal}.`,
      `Outside settings in force: ${listed(meta.environment.inForce)}. ` +
        `Set in the harness's environment but deliberately not passed to the workers: ${listed(meta.environment.notPassedToWorkers)}.`,
      `${labelsLine(meta)}. "repeated" counts executions beyond the uncrashed baseline of the same runtime and variant, per kind of operation, as the world's ledger recorded them.`,
    ],
    sections: [
      ...(baselines.length ? [{ heading: 'No crash (baselines)', blocks: [table(baselines)] }] : []),
      ...CRASH_POINT_NAMES.flatMap((p) => {
        const block = rows.filter((r) => r.crashPoint === p);
        return block.length ? [crashPointSection(p, block)] : [];
      }),
      ...(production.length
        ? [
            { heading: 'Production hazards', level: 1 as const, blocks: [] },
            ...productionSections(production, { level: 2 }),
          ]
        : []),
      ...(granular.length ? [granularitySection(granular, meta.runtimes, { level: 1 })] : []),
    ],
  };
}
