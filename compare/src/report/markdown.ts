import { CRASH_POINTS, CRASH_POINT_NAMES } from '@vendor-review/pipeline/pure';
import { distributionText, lessonLines, money, observedLine, repeatedSummary, rowLabel, seconds } from '../table.ts';
import { HAZARD_SECTIONS } from '@vendor-review/pipeline';
import { figureText, productionLabel } from './production-table.ts';
import { granularityMarkdown } from './granularity-table.ts';
import { labelsLine, runtimesTitle, versionsLine } from './meta-lines.ts';
import { crashRows, granularityRows, productionRows, type ProductionRow, type ResultRow, type Results } from './results.ts';

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
  const { meta } = results;
  const rows = crashRows(results);
  const production = productionRows(results);
  const out: string[] = [
    `# Crash comparison: ${runtimesTitle(meta)}`,
    '',
    `Wall time ${seconds(meta.wallTimeMs)} · ${rows.length} cells · started ${meta.startedAt}`,
    '',
    `Versions: ${versionsLine(meta)}.`,
    '',
    `Infrastructure: world ${meta.infrastructure.world}; model ${meta.infrastructure.model}; PostgreSQL ${meta.infrastructure.postgres}; Temporal ${meta.infrastructure.temporal}.`,
    '',
    `Outside settings in force: ${meta.environment.inForce.length ? meta.environment.inForce.map((s) => `\`${s}\``).join(', ') : 'none'}. ` +
      `Set in the harness's environment but deliberately not passed to the workers: ${meta.environment.notPassedToWorkers.length ? meta.environment.notPassedToWorkers.map((s) => `\`${s}\``).join(', ') : 'none'}.`,
    '',
    `${labelsLine(meta)}. "repeated" counts executions beyond the uncrashed baseline of the same runtime and variant, per kind of operation, as the world's ledger recorded them.`,
    '',
  ];
  const baselines = rows.filter((r) => r.crashPoint === null);
  if (baselines.length) out.push('## No crash (baselines)', '', ...tableRows(baselines), '');
  for (const p of CRASH_POINT_NAMES) {
    const block = rows.filter((r) => r.crashPoint === p);
    if (!block.length) continue;
    out.push(`## ${p}`, '', `*${CRASH_POINTS[p].where}.*`, '', ...lessonLines(p, block).map((l) => `- ${l}`), '');
    out.push(...tableRows(block), '');
    const seen = observedLine(block);
    if (seen) out.push(seen, '');
    const notes = block.filter((r) => r.note || r.link || r.variesAcrossRepeats || r.violations.length);
    for (const r of notes)
      out.push(
        `- ${rowLabel(r)}: ${[
          r.variesAcrossRepeats && `varied over ${r.repetitions} runs: ${distributionText(r)}`,
          r.violations.length && `**not what this crash point must show**: ${r.violations.join('; ')}`,
          r.note,
          r.link,
        ]
          .filter(Boolean)
          .join(' — ')}`,
      );
    if (notes.length) out.push('');
  }
  if (production.length) out.push('# Production hazards', '', ...productionMarkdown(production));
  const granular = granularityRows(results);
  if (granular.length) out.push('', ...granularityMarkdown(granular));
  return out.join('\n');
}

function productionMarkdown(rows: ProductionRow[]): string[] {
  const out: string[] = [];
  for (const section of [...new Set(rows.map((r) => r.section))]) {
    const info = HAZARD_SECTIONS[section];
    out.push(`## ${info.title}`, '', info.lesson, '');
    for (const scenario of [...new Set(rows.filter((r) => r.section === section).map((r) => r.scenario))]) {
      const rs = rows.filter((r) => r.scenario === scenario);
      out.push(`**${rs[0]!.title}**`, '', '| runtime / variant | verdict | figures | conforms |', '|---|---|---|---|');
      for (const r of rs) {
        const figures = Object.entries(r.figures)
          .map(([k, v]) => figureText(k, v))
          .join(' · ');
        const conforms = r.violations.length
          ? `**no**: ${r.violations.join('; ')}`
          : r.deviation
            ? `yes (documented: ${r.deviation})`
            : 'yes';
        out.push(`| ${[productionLabel(r), r.verdict ?? r.status, figures, conforms].map(cell).join(' | ')} |`);
      }
      out.push('');
    }
  }
  return out;
}
