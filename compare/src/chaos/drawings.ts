import { esc, num } from '../report/svg.ts';
import { seconds } from '../table.ts';
import type { ChaosResult, ViolationRecord } from './schema.ts';

/** "LangGraph hardened": the title the runtime's module gave the row (its name in a file older than that). */
export function poolLabel(row: { runtime: string; title?: string | undefined; variant: string }): string {
  return `${row.title ?? row.runtime} ${row.variant}`;
}

/**
 * What chaos.html draws that has no text form: the campaign in time (every run a bar in its
 * pool's lane, every strike a line across them) and a card per violation with the schedule around
 * its run and the command that replays it.
 */
const STRIKE_COLOURS: Record<string, string> = {
  kill: '#dc2626',
  pause: '#d97706',
  'postgres-restart': '#2563eb',
  'server-restart': '#7c3aed',
  'world-burst': '#0d9488',
  'approve-while-down': '#16a34a',
  partition: '#db2777',
};
const END_COLOURS: Record<string, string> = { completed: '#86efac', failed: '#fcd34d', stuck: '#fca5a5' };

/** The campaign in time: a lane per pool, a bar per run (stacked so concurrent runs do not overlap), a line per strike. */
export function timeline(result: ChaosResult): string {
  const runs = result.runs;
  if (!runs.length) return '';
  const t0 = Math.min(...runs.map((r) => r.startedAt), result.meta.strikesFrom ?? Infinity);
  const t1 = Math.max(...runs.map((r) => r.endedAt ?? r.startedAt + (r.durationMs ?? 0)), t0 + 1);
  const width = 1100;
  const left = 140;
  const x = (t: number) => left + ((t - t0) / (t1 - t0)) * (width - left - 10);
  const lanes: string[] = [];
  let y = 10;
  const violated = new Set(result.violations.map((v) => v.runId));
  for (const row of result.rows) {
    const mine = runs.filter((r) => r.pool === row.pool).sort((a, b) => a.startedAt - b.startedAt);
    const ends: number[] = [];
    const bars = mine.map((r) => {
      const end = r.endedAt ?? t1;
      let level = ends.findIndex((e) => e <= r.startedAt);
      if (level < 0) level = ends.push(0) - 1;
      ends[level] = end;
      return { r, end, level };
    });
    const barH = 6;
    const laneH = Math.max(1, ends.length) * (barH + 2) + 8;
    lanes.push(`<text x="4" y="${y + laneH / 2 + 4}">${esc(poolLabel(row))}</text>`);
    lanes.push(`<line x1="${left}" x2="${width}" y1="${y + laneH}" y2="${y + laneH}" stroke="#e2e8f0"/>`);
    for (const { r, end, level } of bars) {
      const stroke = violated.has(r.runId) ? ' stroke="#dc2626" stroke-width="1.5"' : '';
      lanes.push(
        `<rect x="${num(x(r.startedAt))}" y="${y + 4 + level * (barH + 2)}" width="${num(Math.max(1.5, x(end) - x(r.startedAt)))}" height="${barH}" fill="${END_COLOURS[r.end]}"${stroke}><title>${esc(`${r.runId}: ${r.end}${r.violations ? `, ${r.violations} violation(s)` : ''}`)}</title></rect>`,
      );
    }
    y += laneH;
  }
  const from = result.meta.strikesFrom;
  const strikes =
    from === null
      ? []
      : result.strikes
          .filter((s) => s.fired)
          .map(
            (s) =>
              `<line x1="${num(x(from + s.at))}" x2="${num(x(from + s.at))}" y1="6" y2="${y}" stroke="${STRIKE_COLOURS[s.kind]}" stroke-width="1" opacity=".55"><title>${esc(`strike ${s.seq}: ${s.kind} at ${(s.at / 1000).toFixed(1)} s`)}</title></line>`,
          );
  const axis = `<text x="${left}" y="${y + 14}">0 s</text><text x="${width - 60}" y="${y + 14}">${esc(((t1 - t0) / 1000).toFixed(0))} s</text>`;
  const legend = [
    ...Object.entries(STRIKE_COLOURS).map(([k, c]) => `<span><i style="background:${c}"></i>${esc(k)}</span>`),
    ...Object.entries(END_COLOURS).map(([k, c]) => `<span><i style="background:${c}"></i>run ${esc(k)}</span>`),
    '<span><i style="background:#fff;border:1.5px solid #dc2626"></i>run with a violation</span>',
  ].join('');
  return `<svg viewBox="0 0 ${width} ${y + 20}" width="100%" role="img" aria-label="runs and strikes in time">${strikes.join('')}${lanes.join('')}${axis}</svg><div class="legend">${legend}</div>`;
}

/** A failure in words that two runs share: addresses and fault ids out. */
export function failureKind(text: string): string {
  return text
    .replace(/https?:\/\/\S+/g, '…')
    .replace(/\(fault-\d+\)/g, '')
    .replace(/\s+/g, ' ')
    .slice(0, 140);
}

function planText(v: ViolationRecord): string {
  const p = v.plan;
  const parts = [`vendor ${p.vendor}`];
  if (p.crash)
    parts.push(
      p.stopMs
        ? `first worker freezes at ${p.crash.replace(/:stop$/, '')} for ${p.stopMs} ms`
        : `first worker armed with ${p.crash}`,
    );
  for (const f of p.faults)
    parts.push(`world ${f.kind}${f.delayMs ? ` ${f.delayMs} ms` : ''} on ${f.route} ×${f.times}`);
  if (p.holdApproval) parts.push('approval held until no worker is alive');
  return parts.join(' · ');
}

export function violationCard(v: ViolationRecord): string {
  const rows = v.schedule
    .map(
      (e) =>
        `<tr><td class="num">${esc(((e.at - v.startedAt) / 1000).toFixed(1))}</td><td>${esc(e.kind)}${e.strike ? ` #${e.strike}` : ''}</td><td>${esc(e.worker ?? '')}</td><td>${esc(e.detail)}</td></tr>`,
    )
    .join('');
  return `<div class="card"><header><b>${esc(v.runId)}</b><span class="badge">${esc(v.kind)}${v.count > 1 ? ` ×${v.count}` : ''}</span><span class="small">${esc(v.pool)}, ${v.endedAt ? `ended after ${esc(seconds(v.endedAt - v.startedAt))}` : 'never ended'}</span></header>
<div class="why">${esc(v.detail)}</div>
<div class="small">plan: ${esc(planText(v))} · seed <code>${esc(v.seed)}</code> · replay: <code>${esc(v.replay)}</code></div>
<table><tr><th>s from its start</th><th>what</th><th>worker</th><th>detail</th></tr>${rows}</table></div>`;
}
