import { WINDOW_STEP_POINTS, type WindowStep } from '@vendor-review/conformance';
import { colourOf, esc, num, type RuntimeLook } from './svg.ts';
import { lineLabel, notKept, realDelays, type WindowLine } from './window-rows.ts';

/**
 * The commit window at a glance, one panel per step: for every runtime configuration, the share of
 * runs in which the finished step ran again, against the delay between the step's end and the
 * kill as it really was (the median of the runs at each asked delay; a bar from the earliest to the
 * latest death). The delay axis is linear to 1 ms and logarithmic above, so 0, 1, 2 and 200 ms all
 * read. One panel per runtime, in its hue; dashes tell its configurations apart.
 */
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2'];

function axis(maxMs: number): (ms: number) => number {
  const top = 1 + Math.log10(Math.max(maxMs, 1));
  return (ms) => (ms <= 1 ? ms : 1 + Math.log10(ms)) / top;
}

const TICKS = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/** One runtime's panel: its configurations' lines on a shared delay axis. */
function panel(
  lines: readonly WindowLine[],
  colour: string,
  title: string,
  box: { x: number; y: number; w: number; h: number },
  maxMs: number,
): string[] {
  const plotH = box.h - 64 - 16 * Math.ceil(lines.length / 2);
  const left = box.x + 44;
  const plotW = box.w - 56;
  const top = box.y + 22;
  const share = axis(maxMs);
  const x = (ms: number) => left + share(ms) * plotW;
  const y = (v: number) => top + plotH - v * plotH;
  const parts = [`<text class="panel-title" x="${box.x + 4}" y="${box.y + 12}">${esc(title)}</text>`];
  for (const t of TICKS.filter((t) => t <= maxMs * 1.01))
    parts.push(
      `<line class="grid" x1="${num(x(t))}" x2="${num(x(t))}" y1="${top}" y2="${top + plotH}"/><text class="axis" x="${num(x(t))}" y="${top + plotH + 13}" text-anchor="middle">${t}</text>`,
    );
  for (const v of [0, 0.5, 1])
    parts.push(
      `<line class="grid" x1="${left}" x2="${left + plotW}" y1="${num(y(v))}" y2="${num(y(v))}"/><text class="axis" x="${left - 5}" y="${num(y(v) + 4)}" text-anchor="end">${v * 100} %</text>`,
    );
  lines.forEach((l, i) => {
    const dash = DASHES[i % DASHES.length]!;
    const dashAttr = dash ? ` stroke-dasharray="${dash}"` : '';
    const pts = l.rows
      .flatMap((r) => {
        const real = realDelays(r);
        const share = notKept(r);
        return share && real.length
          ? [{ row: r, real, mid: real[Math.floor(real.length / 2)]!, share: share.count / share.of, ...share }]
          : [];
      })
      .sort((a, b) => a.row.delayMs - b.row.delayMs);
    if (pts.length > 1)
      parts.push(
        `<path class="window-line" d="${pts.map((p, j) => `${j ? 'L' : 'M'}${num(x(p.mid))},${num(y(p.share))}`).join(' ')}" fill="none" stroke="${colour}" stroke-opacity=".8" stroke-width="1.6"${dashAttr}/>`,
      );
    for (const p of pts) {
      const cy = y(p.share);
      const tip = `${lineLabel(l)}, asked +${p.row.delayMs} ms: did not keep the step in ${p.count} of ${p.of} run(s)${p.row.lost ? ` (${p.row.lost} lost)` : ''}; died ${p.real.map((d) => d.toFixed(1)).join(', ')} ms after the step's end`;
      parts.push(
        `<g class="window-point" data-series="${esc(l.id)}" data-delay="${p.row.delayMs}"><line x1="${num(x(p.real[0]!))}" x2="${num(x(p.real.at(-1)!))}" y1="${num(cy)}" y2="${num(cy)}" stroke="${colour}" stroke-width="1"/><circle cx="${num(x(p.mid))}" cy="${num(cy)}" r="3.5" fill="${colour}"><title>${esc(tip)}</title></circle></g>`,
      );
    }
    const lost = l.rows.some((r) => r.lost) && l.rows.every((r) => r.judged === 0);
    const lx = box.x + 8 + (i % 2) * (box.w / 2);
    const ly = top + plotH + 34 + 16 * Math.floor(i / 2);
    parts.push(
      `<g class="legend-entry" data-series="${esc(l.id)}"><line x1="${lx}" x2="${lx + 22}" y1="${ly - 4}" y2="${ly - 4}" stroke="${colour}" stroke-width="2"${dashAttr}/><text class="axis" x="${lx + 27}" y="${ly}">${esc(`${l.variant}${l.durability ? ` ${l.durability}` : ''}${lost ? ' (every run lost)' : ''}`)}</text></g>`,
    );
  });
  return parts;
}

export function renderWindowChart(
  lines: readonly WindowLine[],
  step: WindowStep,
  looks: readonly RuntimeLook[],
  width = 900,
): string {
  const mine = lines.filter((l) => l.step === step);
  const delays = mine.flatMap((l) => l.rows.flatMap(realDelays));
  if (!delays.length && !mine.some((l) => l.rows.some((r) => r.lost)))
    return '<p class="empty">No window run could be judged for this step: nothing to plot.</p>';
  const maxMs = Math.max(10, ...delays);
  const runtimes = [...new Set(mine.map((l) => l.runtime))];
  const columns = Math.min(2, runtimes.length);
  const panelW = width / columns;
  const panelH = 210;
  const rows = Math.ceil(runtimes.length / columns);
  const height = rows * panelH + 24;
  const parts = [
    `<svg class="window-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="share of runs in which the finished step ran again, against the delay between its end and the kill, ${esc(WINDOW_STEP_POINTS[step].title)}, one panel per runtime">`,
  ];
  runtimes.forEach((rt, i) => {
    const look = looks.find((l) => l.name === rt);
    const box = { x: (i % columns) * panelW, y: Math.floor(i / columns) * panelH, w: panelW, h: panelH };
    parts.push(
      ...panel(
        mine.filter((l) => l.runtime === rt),
        colourOf(looks, rt),
        look?.title ?? rt,
        box,
        maxMs,
      ),
    );
  });
  parts.push(
    `<text class="axis" x="${num(width / 2)}" y="${height - 6}" text-anchor="middle">share of runs that did not keep the finished step: ran it again, or lost the run (up), against the ms between the end of its work and the kill, as it really was (right)</text>`,
    '</svg>',
  );
  return parts.join('');
}
