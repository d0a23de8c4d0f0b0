import type { CellObservation } from '@vendor-review/conformance';
import { VARYING_REPEATS } from '@vendor-review/conformance';
import { money, rowLabel, seconds, timingText } from '../table.ts';
import type { ResultRow } from './results.ts';
import { cellAnchor } from './scorecard.ts';
import { esc } from './svg.ts';
import { renderTimeline } from './timeline.ts';

/**
 * report.html's card of one crash cell: what its evidence says in a line of facts, and its
 * timeline (timeline.ts): every call to the world by worker, the crash, the durable writes.
 */
export const CELL_CARD_CSS = `
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
.legend span { display: inline-block; margin-right: 14px; font-size: 12px; } .legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
@media print { .cell { background: none; } }
`;

export const TIMELINE_LEGEND = `<div class="legend"><span><i style="background:#3b82f6"></i>web GET</span><span><i style="background:#8b5cf6"></i>model call</span><span><i style="background:#0d9488"></i>tracker note</span><span><i style="background:#ea580c"></i>mail</span><span><i style="background:#fff;border:2px solid #dc2626"></i>re-executed beyond the baseline</span><span>◆ durable write</span><span style="color:#dc2626">┆ crash (SIGKILL)</span></div>`;

export function cellCard(r: ResultRow, obs: CellObservation | undefined): string {
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
    r.link ? `<a href="${esc(r.link)}">open the run in its runtime's UI</a>` : '',
  ].filter(Boolean);
  const whys = [...r.sideEffectDuplicatedWhy, ...r.stateDuplicatedWhy]
    .map((w) => `<div class="why">${esc(w)}</div>`)
    .join('');
  const note = r.note ? `<div class="facts">note: ${esc(r.note)}</div>` : '';
  const timing = timingText(r, VARYING_REPEATS);
  const varies = timing
    ? `<div class="facts">${r.variesAcrossRepeats ? 'varied ' : ''}${esc(timing)}${r.repetitions > 1 ? ' (the timeline is the first)' : ''}</div>`
    : '';
  const violations = r.violations.length
    ? `<div class="why">not what this crash point must show: ${esc(r.violations.join('; '))}</div>`
    : '';
  const timeline = obs
    ? renderTimeline({ obs, repeatSeqs: r.repeatSeqs })
    : '<p class="empty">no observation recorded</p>';
  return `<section class="cell" id="${esc(cellAnchor(r.cellId))}" data-cell="${esc(r.cellId)}" data-status="${esc(r.status)}"><header><h3>${esc(rowLabel(r))}</h3><span class="badge ${esc(r.status)}">${esc(r.status)}</span>${r.finalMatchesBaseline ? '' : '<span class="badge error">review differs from baseline</span>'}</header><div class="facts">${facts.join(' · ')}</div>${varies}${whys}${violations}${note}${timeline}</section>`;
}
