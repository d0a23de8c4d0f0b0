import { WINDOW_STEP_POINTS, type WindowStep } from '@vendor-review/conformance';
import { colourOf, esc, num, type RuntimeLook } from './svg.ts';
import { lineLabel, realDelays, type WindowLine } from './window-rows.ts';

/**
 * The commit window at a glance, one panel per step: for every runtime configuration, the share of
 * runs in which the finished step ran again, against the delay between the step's end and the
 * kill as it really was (the median of the runs at each asked delay; a bar from the earliest to the
 * latest death). The delay axis is linear to 1 ms and logarithmic above, so 0, 1, 2 and 200 ms all
 * read. Hue is the runtime; dashes tell its configurations apart.
 */
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2'];

function axis(maxMs: number): (ms: number) => number {
  const top = 1 + Math.log10(Math.max(maxMs, 1));
  return (ms) => (ms <= 1 ? ms : 1 + Math.log10(ms)) / top;
}

const TICKS = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export function renderWindowChart(
  lines: readonly WindowLine[],
  step: WindowStep,
  looks: readonly RuntimeLook[],
  width = 900,
): string {
  const mine = lines.filter((l) => l.step === step);
  const plotted = mine.flatMap((l) =>
    l.rows.flatMap((r) => {
      const real = realDelays(r);
      return r.judged && real.length ? [{ line: l, row: r, real }] : [];
    }),
  );
  if (!plotted.length) return '<p class="empty">No window run could be judged for this step: nothing to plot.</p>';
  const maxMs = Math.max(...plotted.map((p) => p.real.at(-1)!), 10);
  const left = 56;
  const right = 16;
  const top = 16;
  const plotH = 220;
  const plotW = width - left - right;
  const perLine = Math.max(1, Math.floor(plotW / 200));
  const legendRows = Math.ceil(mine.length / perLine);
  const height = top + plotH + 44 + 20 * legendRows;
  const share = axis(maxMs);
  const x = (ms: number) => left + share(ms) * plotW;
  const y = (v: number) => top + plotH - v * plotH;
  const parts = [
    `<svg class="window-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="share of runs in which the finished step ran again, against the delay between its end and the kill, ${esc(WINDOW_STEP_POINTS[step].title)}">`,
  ];
  for (const t of TICKS.filter((t) => t <= maxMs * 1.01))
    parts.push(
      `<line class="grid" x1="${num(x(t))}" x2="${num(x(t))}" y1="${top}" y2="${top + plotH}"/><text class="axis" x="${num(x(t))}" y="${top + plotH + 14}" text-anchor="middle">${t}</text>`,
    );
  for (const v of [0, 0.25, 0.5, 0.75, 1])
    parts.push(
      `<line class="grid" x1="${left}" x2="${width - right}" y1="${num(y(v))}" y2="${num(y(v))}"/><text class="axis" x="${left - 6}" y="${num(y(v) + 4)}" text-anchor="end">${v * 100} %</text>`,
    );
  parts.push(
    `<text class="axis" x="${num(left + plotW / 2)}" y="${top + plotH + 30}" text-anchor="middle">ms between the end of the step's work and the kill, as it really was →</text>`,
  );
  const dashOf = new Map<string, string>();
  mine.forEach((l, i) => {
    const colour = colourOf(looks, l.runtime);
    const sameRuntime = mine.filter((m) => m.runtime === l.runtime);
    const dash = DASHES[sameRuntime.indexOf(l) % DASHES.length]!;
    dashOf.set(l.id, dash);
    const pts = plotted.filter((p) => p.line === l).map((p) => ({ ...p, mid: p.real[Math.floor(p.real.length / 2)]! }));
    pts.sort((a, b) => a.mid - b.mid);
    if (pts.length > 1)
      parts.push(
        `<path class="window-line" d="${pts.map((p, j) => `${j ? 'L' : 'M'}${num(x(p.mid))},${num(y(p.row.reran / p.row.judged))}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
      );
    for (const p of pts) {
      const cy = y(p.row.reran / p.row.judged);
      const title = `${lineLabel(l)}, asked +${p.row.delayMs} ms: ran again in ${p.row.reran} of ${p.row.judged} run(s); died ${p.real.map((d) => d.toFixed(1)).join(', ')} ms after the step's end`;
      parts.push(
        `<g class="window-point" data-series="${esc(l.id)}" data-delay="${p.row.delayMs}"><line x1="${num(x(p.real[0]!))}" x2="${num(x(p.real.at(-1)!))}" y1="${num(cy)}" y2="${num(cy)}" stroke="${colour}" stroke-width="1"/><circle cx="${num(x(p.mid))}" cy="${num(cy)}" r="4" fill="${colour}"><title>${esc(title)}</title></circle></g>`,
      );
    }
    const lx = left + (i % perLine) * 200;
    const ly = top + plotH + 50 + 20 * Math.floor(i / perLine);
    parts.push(
      `<g class="legend-entry" data-series="${esc(l.id)}"><line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/><text class="axis" x="${lx + 30}" y="${ly}">${esc(lineLabel(l))}</text></g>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
