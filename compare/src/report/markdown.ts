import { CRASH_POINTS, CRASH_POINT_NAMES } from '@vendor-review/domain/pure';
import { money, repeatedSummary, rowLabel, seconds } from '../table.ts';
import type { ResultRow, Results } from './results.ts';

/** results.md: the same table as the terminal, for a pull request or a wiki page. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

const yes = (v: boolean) => (v ? '**yes**' : 'no');

function tableRows(rows: ResultRow[]): string[] {
  const out = [
    '| runtime / variant | last durable | first after resume | repeated | extra model calls | extra tokens | extra cost | state dup. | effect dup. | recovery | = baseline | status |',
    '|---|---|---|---|--:|--:|--:|---|---|--:|---|---|',
  ];
  for (const r of rows) {
    // A lost run did less than the baseline: no "extra" to show.
    const base = r.variant === 'baseline' || r.extraModelCalls < 0;
    out.push(
      `| ${[
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
        r.finalMatchesBaseline ? 'yes' : '**no**',
        r.status === 'completed' ? 'completed' : `**${r.status}**`,
      ]
        .map(cell)
        .join(' | ')} |`,
    );
  }
  return out;
}

export function renderMarkdown(results: Results): string {
  const { rows, meta } = results;
  const out: string[] = [
    '# Crash comparison: LangGraph vs Temporal',
    '',
    `Wall time ${seconds(meta.wallTimeMs)} · ${rows.length} cells · started ${meta.startedAt}`,
    '',
    `Versions: LangGraph ${meta.versions.langgraph ?? '?'} (checkpoint-postgres ${meta.versions.langgraphCheckpointPostgres ?? '?'}), Temporal SDK ${meta.versions.temporalSdk ?? '?'}, Temporal server ${meta.versions.temporalServer ?? '?'}, Node ${meta.versions.node}.`,
    '',
    `Infrastructure: world ${meta.infrastructure.world}; PostgreSQL ${meta.infrastructure.postgres}; Temporal ${meta.infrastructure.temporal}.`,
    '',
    'LG = LangGraph, TM = Temporal. "repeated" counts executions beyond the uncrashed baseline of the same runtime and variant, per kind of operation, as the world\'s ledger recorded them.',
    '',
  ];
  const baselines = rows.filter((r) => r.crashPoint === null);
  if (baselines.length) out.push('## No crash (baselines)', '', ...tableRows(baselines), '');
  for (const p of CRASH_POINT_NAMES) {
    const block = rows.filter((r) => r.crashPoint === p);
    if (!block.length) continue;
    out.push(`## ${p}`, '', `*${CRASH_POINTS[p].where}.* ${CRASH_POINTS[p].lesson}`, '', ...tableRows(block), '');
    const notes = block.filter((r) => r.note || r.link);
    for (const r of notes) out.push(`- ${rowLabel(r)}: ${[r.note, r.link].filter(Boolean).join(' — ')}`);
    if (notes.length) out.push('');
  }
  return out.join('\n');
}
