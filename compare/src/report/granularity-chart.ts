import {
  bytes,
  granularityPoints,
  ms,
  pointLabel,
  repeatedText,
  type GranularityPoint,
  type GranularityRow,
} from './granularity-rows.ts';
import { colourOf, esc, num, type RuntimeLook } from './svg.ts';

/**
 * The trade at a glance: one point per runtime and granularity, what a late crash repeated (paid
 * model calls, up) against what the boundaries cost an uncrashed run (time between calls, right).
 * The points of one runtime are joined coarsest to finest, so each runtime draws its own curve:
 * up and to the left is a big node, down and to the right many small ones.
 */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * step) return m * step;
  return 10 * step;
}

export function renderGranularityChart(rows: GranularityRow[], looks: readonly RuntimeLook[], width = 900): string {
  const points = granularityPoints(rows).filter(
    (p): p is GranularityPoint & { uncrashed: GranularityRow; late: GranularityRow } =>
      p.uncrashed?.overheadMs != null && p.late?.repeatedModelCalls != null,
  );
  if (!points.length)
    return '<p class="empty">No granularity cell both ran uncrashed and crashed late: nothing to plot.</p>';
  const left = 64;
  const right = 24;
  const top = 20;
  const plotH = 260;
  const bottom = 70;
  const height = top + plotH + bottom;
  const plotW = width - left - right;
  const maxX = niceMax(Math.max(...points.map((p) => p.uncrashed.overheadMs!)) * 1.1);
  const maxY = Math.max(1, Math.ceil(Math.max(...points.map((p) => p.late.repeatedModelCalls!)) * 1.2));
  const x = (v: number) => left + (v / maxX) * plotW;
  const y = (v: number) => top + plotH - (v / maxY) * plotH;
  const parts: string[] = [
    `<svg class="granularity-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="model calls repeated by a late crash against the durability overhead of an uncrashed run, per runtime and granularity">`,
  ];
  for (let i = 0; i <= 5; i++) {
    const v = (maxX * i) / 5;
    parts.push(
      `<line class="grid" x1="${num(x(v))}" x2="${num(x(v))}" y1="${top}" y2="${top + plotH}"/><text class="axis" x="${num(x(v))}" y="${top + plotH + 16}" text-anchor="middle">${esc(ms(v))}</text>`,
    );
  }
  for (let v = 0; v <= maxY; v++) {
    parts.push(
      `<line class="grid" x1="${left}" x2="${width - right}" y1="${num(y(v))}" y2="${num(y(v))}"/><text class="axis" x="${left - 8}" y="${num(y(v) + 4)}" text-anchor="end">${v}</text>`,
    );
  }
  parts.push(
    `<text class="axis" x="${num(left + plotW / 2)}" y="${top + plotH + 36}" text-anchor="middle">durability overhead of an uncrashed run (time between calls to the world) →</text>`,
    `<text class="axis" transform="rotate(-90)" x="${num(-(top + plotH / 2))}" y="16" text-anchor="middle">model calls repeated by a late crash →</text>`,
  );
  const runtimes = [...new Set(points.map((p) => p.runtime))];
  runtimes.forEach((rt, ri) => {
    // Runtimes that land close together: one's names above its points, the next one's below.
    const labelDy = ri % 2 === 0 ? -9 : 19;
    const colour = colourOf(looks, rt);
    const mine = points.filter((p) => p.runtime === rt);
    if (mine.length > 1) {
      const d = mine
        .map((p, i) => `${i ? 'L' : 'M'}${num(x(p.uncrashed.overheadMs!))},${num(y(p.late.repeatedModelCalls!))}`)
        .join(' ');
      parts.push(`<path class="trade" d="${d}" fill="none" stroke="${colour}" stroke-opacity=".35" stroke-width="2"/>`);
    }
    for (const p of mine) {
      const cx = x(p.uncrashed.overheadMs!);
      const cy = y(p.late.repeatedModelCalls!);
      // Below a point on the floor is the axis's own numbers: there the name goes above.
      const dy = labelDy > 0 && p.late.repeatedModelCalls === 0 ? -9 : labelDy;
      const title = `${pointLabel(p)} (${p.variant}): a late crash repeated ${repeatedText(p.late)}; uncrashed: ${p.uncrashed.durableRecords ?? '?'} durable records, ${bytes(p.uncrashed.bytesStored)}, ${ms(p.uncrashed.overheadMs)} between calls`;
      parts.push(
        `<g class="point" data-runtime="${esc(p.runtime)}" data-granularity="${esc(p.granularity)}"><circle cx="${num(cx)}" cy="${num(cy)}" r="6" fill="${colour}"><title>${esc(title)}</title></circle><text x="${num(cx + 9)}" y="${num(cy + dy)}">${esc(pointLabel(p))}</text></g>`,
      );
    }
  });
  runtimes.forEach((rt, i) => {
    const lx = left + i * 170;
    const ly = height - 14;
    const label = points.find((p) => p.runtime === rt)!.runtimeLabel;
    parts.push(
      `<circle cx="${lx + 6}" cy="${ly - 4}" r="6" fill="${colourOf(looks, rt)}"/><text class="axis" x="${lx + 16}" y="${ly}">${esc(label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
