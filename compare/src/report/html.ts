import { CRASH_POINTS, CRASH_POINT_NAMES } from '@vendor-review/pipeline/pure';
import type { CellObservation, HazardObservation } from '@vendor-review/conformance';
import { distributionText, lessonLines, money, observedLine, repeatedSummary, rowLabel, seconds } from '../table.ts';
import { renderCostChart } from './chart.ts';
import { runtimesTitle, versionsLine } from './meta-lines.ts';
import { GRANULARITY_CSS, PRODUCTION_CSS, REPORT_CSS } from './style.ts';
import { buildScorecard, cellAnchor, renderScorecardHtml, SCORECARD_CSS } from './scorecard.ts';
import { renderGranularitySection } from './granularity-table.ts';
import { renderProductionSections } from './production-table.ts';
import { crashRows, granularityRows, productionRows, type ResultRow, type Results } from './results.ts';
import { esc } from './svg.ts';
import { renderTimeline } from './timeline.ts';

/**
 * report.html: one file, no network (inline CSS, inline SVG, no script), readable on screen and on
 * paper. A summary table, the cost chart, then one card per cell with its timeline.
 */
const CSS = `
td:first-child { white-space: nowrap; }
tr.group th { background: #e0e7ff; font-size: 12px; padding: 3px 6px; }
.yes-bad { color: var(--bad); font-weight: 600; } .no-good { color: var(--ok); } .status-completed { color: var(--ok); } .status-bad { color: var(--warn); font-weight: 600; } .status-error { color: var(--bad); font-weight: 700; }
tr.varies td { color: var(--warn); font-size: 12px; border-bottom: none; }
.seen { color: var(--muted); font-size: 12.5px; margin: -4px 0 10px; }
.cell { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin: 10px 0; background: var(--card); break-inside: avoid; page-break-inside: avoid; }
.cell header { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.cell .facts { color: var(--muted); font-size: 12.5px; margin: 4px 0 6px; } .cell .facts b { color: var(--fg); font-weight: 600; }
.cell .why { font-size: 12px; color: var(--bad); margin: 2px 0; }
.badge { font-size: 11px; padding: 1px 7px; border-radius: 10px; background: #e2e8f0; }
.badge.completed { background: #dcfce7; } .badge.stuck, .badge.lost, .badge.failed { background: #fef3c7; } .badge.error { background: #fee2e2; }
svg .lane-rule { stroke: #e2e8f0; } svg .worker-life { fill: #e2e8f0; opacity: .7; }
svg .op { stroke: rgba(0,0,0,.25); stroke-width: .5; } svg .op-repeat { stroke: var(--bad); stroke-width: 2.2; }
svg .op-deduplicated { opacity: .45; } svg .op-aborted { opacity: .6; stroke-dasharray: 2 1; }
svg .durable-mark { fill: #0f172a; opacity: .75; }
svg .crash-marker line { stroke: var(--bad); stroke-width: 2; stroke-dasharray: 4 3; } svg .crash-marker text { fill: var(--bad); font-weight: 700; }
svg .approval-mark line { stroke: var(--ok); stroke-width: 1.5; } svg .approval-mark text { fill: var(--ok); }
svg .bar.hardened { opacity: .45; }
.legend span { display: inline-block; margin-right: 14px; font-size: 12px; } .legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
@media print { .cell { background: none; } }
`;

function yesCell(v: boolean, base: boolean): string {
  if (base) return '<td>—</td>';
  return v ? '<td class="yes-bad">yes</td>' : '<td class="no-good">no</td>';
}

function statusClass(s: ResultRow['status']): string {
  return s === 'completed' ? 'status-completed' : s === 'error' ? 'status-error' : 'status-bad';
}

function summaryTable(rows: ResultRow[]): string {
  const head =
    '<tr><th>runtime / variant</th><th>last durable</th><th>first after resume</th><th>repeated</th><th>extra calls</th><th>extra cost</th><th>state dup.</th><th>effect dup.</th><th>recovery</th><th>= baseline</th><th>status</th></tr>';
  let group: string | null | undefined;
  const body = rows
    .map((r) => {
      const header =
        r.crashPoint !== group
          ? `<tr class="group"><th colspan="11">${esc(r.crashPoint ?? 'no crash (baselines)')}</th></tr>`
          : '';
      group = r.crashPoint;
      const base = r.variant === 'baseline' || r.extraModelCalls < 0;
      const varies = r.variesAcrossRepeats
        ? `<tr class="varies"><td></td><td colspan="10">↳ over ${r.repetitions} runs: ${esc(distributionText(r))}</td></tr>`
        : '';
      return `${header}<tr><td><a href="#${esc(cellAnchor(r.cellId))}">${esc(rowLabel(r))}</a></td><td title="${esc(r.lastDurable)}">${esc(r.lastDurableShort)}</td><td title="${esc(r.firstAfterResume)}">${esc(r.firstAfterResumeShort)}</td><td title="${esc(r.repeatedOperations.join('\n'))}">${esc(repeatedSummary(r))}</td><td class="num">${base ? '—' : r.extraModelCalls}</td><td class="num">${base ? '—' : esc(money(r.extraCostUsd))}</td>${yesCell(r.stateDuplicated, base)}${yesCell(r.sideEffectDuplicated, base)}<td class="num">${esc(seconds(r.recoveryMs))}</td><td class="${r.finalMatchesBaseline ? 'no-good' : 'yes-bad'}">${r.finalMatchesBaseline ? 'yes' : 'no'}</td><td class="${statusClass(r.status)}">${esc(r.status)}</td></tr>${varies}`;
    })
    .join('');
  return `<table>${head}${body}</table>`;
}

function cellCard(r: ResultRow, obs: CellObservation | undefined): string {
  const facts = [
    `last durable: <b>${esc(r.lastDurable)}</b>`,
    `first after resume: <b>${esc(r.firstAfterResume)}</b>`,
    `repeated: <b>${esc(r.repeated.length ? r.repeated.map((x) => `${x.opKey} ×${x.count} (baseline ${x.baselineCount})`).join(', ') : 'nothing')}</b>`,
    r.variant === 'baseline'
      ? ''
      : r.extraModelCalls < 0
        ? 'extra: <b>—</b> (the run did less than its baseline)'
        : `extra: <b>${r.extraModelCalls} model call(s), ${r.extraTokens} tokens, ${esc(money(r.extraCostUsd))}</b>`,
    `recovery: <b>${esc(seconds(r.recoveryMs))}</b>${r.repetitions > 1 ? ` (median of ${r.recovery.n}; ${esc(seconds(r.recovery.minMs))}–${esc(seconds(r.recovery.maxMs))})` : ''}`,
    `run <code>${esc(r.runId)}</code>${r.runtimeIds.threadId ? ` · thread <code>${esc(r.runtimeIds.threadId)}</code>` : ''}${r.runtimeIds.workflowId ? ` · workflow <code>${esc(r.runtimeIds.workflowId)}</code>` : ''}${r.runtimeIds.runtimeRunId ? ` · run <code>${esc(r.runtimeIds.runtimeRunId)}</code>` : ''}`,
    r.link ? `<a href="${esc(r.link)}">open in the Temporal UI</a>` : '',
  ].filter(Boolean);
  const whys = [...r.sideEffectDuplicatedWhy, ...r.stateDuplicatedWhy]
    .map((w) => `<div class="why">${esc(w)}</div>`)
    .join('');
  const note = r.note ? `<div class="facts">note: ${esc(r.note)}</div>` : '';
  const varies = r.variesAcrossRepeats
    ? `<div class="facts">varied over ${r.repetitions} runs (the timeline is the first): <b>${esc(distributionText(r))}</b></div>`
    : '';
  const violations = r.violations.length
    ? `<div class="why">not what this crash point must show: ${esc(r.violations.join('; '))}</div>`
    : '';
  const timeline = obs
    ? renderTimeline({ obs, repeatSeqs: r.repeatSeqs })
    : '<p class="empty">no observation recorded</p>';
  return `<section class="cell" id="${esc(cellAnchor(r.cellId))}" data-cell="${esc(r.cellId)}" data-status="${esc(r.status)}"><header><h3>${esc(rowLabel(r))}</h3><span class="badge ${esc(r.status)}">${esc(r.status)}</span>${r.finalMatchesBaseline ? '' : '<span class="badge error">review differs from baseline</span>'}</header><div class="facts">${facts.join(' · ')}</div>${varies}${whys}${violations}${note}${timeline}</section>`;
}

export function renderHtml(
  results: Results,
  observations: CellObservation[],
  hazards: readonly HazardObservation[] = [],
): string {
  const { meta } = results;
  const rows = crashRows(results);
  const production = productionRows(results);
  const granular = granularityRows(results);
  const obsByCell = new Map<string, CellObservation>();
  for (const o of observations)
    if (!obsByCell.has(o.scenario.id) || o.repetition === 0) obsByCell.set(o.scenario.id, o);
  const sections: string[] = [];
  const baselines = rows.filter((r) => r.crashPoint === null);
  if (baselines.length) {
    sections.push(
      `<h2 id="baselines">No crash: the baselines</h2><p class="seen">Every crashed cell is compared with the baseline of its runtime and variant.</p>${baselines.map((r) => cellCard(r, obsByCell.get(r.cellId))).join('')}`,
    );
  }
  for (const p of CRASH_POINT_NAMES) {
    const block = rows.filter((r) => r.crashPoint === p);
    if (!block.length) continue;
    sections.push(
      `<h2 id="${esc(p)}">${esc(p)} <small style="font-weight:400;color:#64748b">— ${esc(CRASH_POINTS[p].where)}</small></h2><div class="lesson">${lessonLines(
        p,
        block,
      )
        .map((l) => `<div>${esc(l)}</div>`)
        .join(
          '',
        )}</div><p class="seen">${esc(observedLine(block))}</p>${block.map((r) => cellCard(r, obsByCell.get(r.cellId))).join('')}`,
    );
  }
  const legend = `<div class="legend"><span><i style="background:#3b82f6"></i>web GET</span><span><i style="background:#8b5cf6"></i>model call</span><span><i style="background:#0d9488"></i>tracker note</span><span><i style="background:#ea580c"></i>mail</span><span><i style="background:#fff;border:2px solid #dc2626"></i>re-executed beyond the baseline</span><span>◆ durable write</span><span style="color:#dc2626">┆ crash (SIGKILL)</span></div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crash comparison: ${esc(runtimesTitle(meta))}</title><style>${REPORT_CSS}${CSS}${PRODUCTION_CSS}${GRANULARITY_CSS}${SCORECARD_CSS}</style></head>
<body>
<h1>What re-executes when a worker dies: ${esc(runtimesTitle(meta))}</h1>
<p class="meta">${rows.length} crash cells · ${production.length} production hazard rows · wall time ${esc(seconds(meta.wallTimeMs))} · ${esc(meta.startedAt)} · <span class="versions">${esc(versionsLine(meta))}</span><br>
PostgreSQL: ${esc(meta.infrastructure.postgres)} · Temporal: ${esc(meta.infrastructure.temporal)} · world: ${esc(meta.infrastructure.world)} · model: ${esc(meta.infrastructure.model)}<br>
Outside settings in force: <span class="env-in-force">${esc(meta.environment.inForce.join(', ') || 'none')}</span> · set in the harness's environment but deliberately not passed to the workers: <span class="env-withheld">${esc(meta.environment.notPassedToWorkers.join(', ') || 'none')}</span></p>
<p>Each cell ran one review on a fresh business run. Worker A (a real process) was killed with SIGKILL at the named crash point, worker B (a new process) resumed the run. Every number comes from outside the workers: the simulated world's ledger (what was called, how often, at what cost) and the runtime's durable record (its checkpoints, history or step journal). "Repeated" means executed more often than in the uncrashed baseline of the same runtime and variant.</p>
${renderScorecardHtml(buildScorecard(results))}
<h2 id="summary">Summary</h2>
${summaryTable(rows)}
<h2 id="cost">Extra model cost per crash point</h2>
${renderCostChart(rows, meta.runtimes)}
<h2 id="timelines">Timelines</h2>
${legend}
${sections.join('\n')}
${production.length ? `<h2 id="production">Production hazards: resumable is not correct</h2><p>Each row put one runtime, in one variant, through one hazard, with real worker processes and the simulated world; the verdict is judged from the world's ledger and the durable records.</p>${renderProductionSections(production, hazards)}` : ''}
${granular.length ? renderGranularitySection(granular, meta.runtimes) : ''}
</body></html>
`;
}
