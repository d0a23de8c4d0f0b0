import { REPORT_CSS } from '../report/style.ts';
import { esc, num } from '../report/svg.ts';
import { money, seconds } from '../table.ts';
import { clean } from './checker.ts';
import type { ChaosResult, ViolationRecord } from './schema.ts';
import { poolLabel } from './table.ts';

/**
 * chaos.html: one self-contained file (inline CSS and SVG, no script, no network). The table, the
 * campaign drawn in time (every run a bar in its pool's lane, every strike a line across them),
 * then every violation with the schedule around its run and the command that replays it.
 */
const CSS = `
td.bad { color: var(--bad); font-weight: 700; } .ok { color: var(--ok); font-weight: 600; } .notok { color: var(--bad); font-weight: 700; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 10px 0; background: var(--card); break-inside: avoid; }
.card header { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.card .why { color: var(--bad); } .card code { font-size: 12px; }
.badge { font-size: 11px; padding: 1px 7px; border-radius: 10px; background: #fee2e2; }
.legend span { display: inline-block; margin-right: 14px; font-size: 12px; } .legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
`;

const STRIKE_COLOURS: Record<string, string> = {
  kill: '#dc2626',
  pause: '#d97706',
  'postgres-restart': '#2563eb',
  'temporal-restart': '#7c3aed',
  'world-burst': '#0d9488',
  'approve-while-down': '#16a34a',
};
const END_COLOURS: Record<string, string> = { completed: '#86efac', failed: '#fcd34d', stuck: '#fca5a5' };

function summaryTable(result: ChaosResult): string {
  const head = [
    'runtime / variant',
    'runs',
    'kills',
    'crash points',
    'pauses',
    'PG restarts',
    'Temporal restarts',
    'world faults',
    'approvals while down',
    'completed',
    'dead-lettered',
    'false dead letters',
    'stuck',
    'duplicate effects',
    'late writes',
    'other violations',
    'extra model spend',
    'p50',
    'p95',
  ];
  const num = (n: number, badWhen = false) => `<td class="num${badWhen && n > 0 ? ' bad' : ''}">${n}</td>`;
  const rows = result.rows.map((r) => {
    const f = r.faults;
    return `<tr><td>${esc(poolLabel(r))}</td>${num(r.runs)}${num(f.kill)}${num(f['crash-point'])}${num(f.pause)}${num(f['postgres-restart'])}${num(f['temporal-restart'])}${num(f['world-fault'])}${num(f['approve-while-down'])}${num(r.completed)}${num(r.deadLettered)}${num(r.falseDeadLetters, true)}${num(r.stuck, true)}${num(r.duplicateEffects, true)}${num(r.lateWrites, true)}${num(r.otherViolations, true)}<td class="num">${esc(money(r.extraSpendUsd))}</td><td class="num">${esc(seconds(r.timeToCompletionMs?.median ?? null))}</td><td class="num">${esc(seconds(r.timeToCompletionMs?.p95 ?? null))}</td></tr>`;
  });
  return `<table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

/** The campaign in time: a lane per pool, a bar per run (stacked so concurrent runs do not overlap), a line per strike. */
function timeline(result: ChaosResult): string {
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

/** Why runs ended failed, per runtime × variant, most frequent first. */
function failures(result: ChaosResult): string {
  const rows = result.rows.flatMap((row) => {
    const count = new Map<string, number>();
    for (const r of result.runs.filter((x) => x.pool === row.pool && x.end === 'failed'))
      count.set(
        failureKind(r.failure ?? 'no reason recorded'),
        (count.get(failureKind(r.failure ?? 'no reason recorded')) ?? 0) + 1,
      );
    return [...count]
      .sort((a, b) => b[1] - a[1])
      .map(([why, n]) => `<tr><td>${esc(poolLabel(row))}</td><td class="num">${n}</td><td>${esc(why)}</td></tr>`);
  });
  return rows.length
    ? `<table><tr><th>runtime / variant</th><th>runs</th><th>why they ended failed</th></tr>${rows.join('')}</table>`
    : '<p>None.</p>';
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

function violationCard(v: ViolationRecord): string {
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

export function renderChaosHtml(result: ChaosResult, o: { maxCards?: number } = {}): string {
  const m = result.meta;
  const hardened = result.rows.filter((r) => r.variant === 'hardened');
  const verdict = hardened.length
    ? hardened.every(clean)
      ? '<p class="ok">Hardened: no stuck run, no duplicate effect, no late write accepted, no false dead letter.</p>'
      : '<p class="notok">Hardened: NOT clean, see the violations.</p>'
    : '';
  const max = o.maxCards ?? 300;
  const cards = result.violations.slice(0, max).map(violationCard).join('\n');
  const more =
    result.violations.length > max
      ? `<p class="small">… and ${result.violations.length - max} more in chaos.json.</p>`
      : '';
  const versions = Object.entries(m.versions)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const gaps = Object.entries(m.schedule.gapsMs)
    .map(([k, v]) => `${k} every ${(v / 1000).toFixed(0)} s`)
    .join(', ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chaos campaign, seed ${esc(m.seed)}</title><style>${REPORT_CSS}${CSS}</style></head><body>
<h1>Chaos campaign${m.replayOf ? `: replay of ${esc(m.replayOf)}` : ''}</h1>
<p class="meta">seed <code>${esc(m.seed)}</code> · ${m.runsPerPool} review(s) per runtime × variant, ${m.workers} in flight per pool · ${esc(m.startedAt)} · wall time ${esc(seconds(m.wallTimeMs))} · <code>${esc(m.command)}</code><br>
${esc(m.machine.cpus)} × ${esc(m.machine.cpuModel)}, ${esc(m.machine.memoryGiB)} GiB, load ${esc(m.machine.loadAverage.start)} → ${esc(m.machine.loadAverage.end ?? '?')} · ${esc(versions)}<br>
${esc(m.infra.world)} · ${esc(m.infra.postgres)} · ${esc(m.infra.temporal)}</p>
<h2>What struck, and what the outside saw</h2>
${summaryTable(result)}
${verdict}
<p class="small">Judged after the campaign quiesced, from the receivers' stores (mails, notes), the world's ledger, the durable records (checkpoints with writer and fencing token, event histories with worker identities) and the outbox rows; never from what a worker printed. Dead-lettered: ended failed (naive: on the error). Duplicate effects: mails or notes the receivers stored beyond one. Late writes: checkpoints, task closes or completions accepted from a writer that had lost the run. Extra model spend: model calls beyond the uncrashed run's. p50/p95: start to completion of the completed runs, the time their approval was waited for left out.</p>
<h2>The campaign in time</h2>
${timeline(result)}
<h2>Runs that ended failed</h2>
<p class="small">Not violations: a run may end failed (hardened: in its dead letter, for a person; naive: on the first error it meets). What the world's faults and the strikes did to them:</p>
${failures(result)}
<h2>Violations (${result.violations.length})</h2>
${cards || '<p>None.</p>'}
${more}
<h2>The schedule</h2>
<p class="small">Strikes (a Poisson process per kind, each hitting every pool at once): ${esc(gaps)}; pauses ${m.schedule.pauseMs[0]}–${m.schedule.pauseMs[1]} ms. Per run and per queue worker: ${Math.round(m.schedule.armRate * 100)}% armed with a crash point, ${Math.round(m.schedule.stopShare * 100)}% of those to freeze there instead of dying (${esc([...new Set(m.schedule.points)].join(', '))}), ${Math.round(m.schedule.worldFaultRate * 100)}% with world faults of their own, ${Math.round(m.schedule.holdApprovalRate * 100)}% with the approval held until no worker is alive. Vendors: ${esc(m.schedule.vendors.join(', '))}.</p>
${m.notes.length ? `<ul>${m.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
</body></html>
`;
}
