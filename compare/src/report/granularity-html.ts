import { GRANULARITY_INFO } from '@vendor-review/pipeline';
import { GRANULARITY_CRASH_POINTS } from '@vendor-review/conformance';
import { money, seconds } from '../table.ts';
import { renderGranularityChart } from './granularity-chart.ts';
import type { RuntimeLook } from './svg.ts';
import { granularityPoints, type GranularityRow } from './granularity-rows.ts';
import { bytes, GRANULARITY_LESSON, granularitySeen, ms, pointLabel, repeatedText } from './granularity-table.ts';
import { esc } from './svg.ts';

/**
 * The granularity suite in report.html: the lesson, the chart of the trade, then a table with one
 * line per runtime and granularity, and where each granularity puts its boundaries.
 */
export const GRANULARITY_CSS = `
svg .point text { font-size: 11px; } svg .trade { stroke-dasharray: 4 3; }
table.granularity td.cost { color: var(--muted); }
`;

export function renderGranularitySection(rows: GranularityRow[], runtimes: readonly RuntimeLook[]): string {
  const points = granularityPoints(rows);
  const head =
    '<tr><th>runtime / granularity</th><th>records</th><th>stored</th><th>overhead</th><th>wall (world)</th><th>early: repeated</th><th>extra</th><th>late: repeated</th><th>extra</th><th>recovery</th></tr>';
  const body = points
    .map((p) => {
      const u = p.uncrashed;
      return `<tr data-runtime="${esc(p.runtime)}" data-granularity="${esc(p.granularity)}"><td>${esc(pointLabel(p))} <small>${esc(p.variant)}</small></td><td class="num">${esc(u?.durableRecords ?? '—')}</td><td class="num">${esc(bytes(u?.bytesStored ?? null))}</td><td class="num">${esc(ms(u?.overheadMs ?? null))}</td><td class="num cost">${esc(ms(u?.wallMs ?? null))} (${esc(ms(u?.worldMs ?? null))})</td><td>${esc(repeatedText(p.early))}</td><td class="num">${esc(p.early ? money(p.early.extraCostUsd) : '—')}</td><td>${esc(repeatedText(p.late))}</td><td class="num">${esc(p.late ? money(p.late.extraCostUsd) : '—')}</td><td class="num">${esc(seconds(p.late?.recoveryMs ?? null))}</td></tr>`;
    })
    .join('');
  const shown = [...new Set(points.map((p) => p.granularity))];
  const boundaries = shown
    .map((g) => `<li><b>${esc(g)}</b> (${esc(GRANULARITY_INFO[g].title)}): ${esc(GRANULARITY_INFO[g].boundaries)}</li>`)
    .join('');
  const notes = rows
    .filter((r) => r.note)
    .map((r) => `<li>${esc(r.cellId)}: ${esc(r.note)}</li>`)
    .join('');
  return `<h2 id="granularity">Node size: what a crash repeats against what the boundaries cost</h2>
<div class="lesson">${esc(GRANULARITY_LESSON)}</div>
${granularitySeen(rows)
  .map((s) => `<p class="seen">${esc(s)}</p>`)
  .join('')}
${renderGranularityChart(rows, runtimes)}
<table class="granularity">${head}${body}</table>
<p class="seen">records: what the runtime keeps durable (checkpoints, history events, journal rows) for the uncrashed run, pre-approved so nobody's reply is timed · stored: what the runtime keeps for it · overhead: the time between its first and last call to the world that the world was not answering · early: ${esc(GRANULARITY_CRASH_POINTS.early.where)} · late: ${esc(GRANULARITY_CRASH_POINTS.late.where)}.</p>
<ul>${boundaries}</ul>${notes ? `<ul class="seen">${notes}</ul>` : ''}`;
}
