import { CRASH_POINT_NAMES } from '@vendor-review/instrument/points';
import { money, rowLabel } from '../table.ts';
import type { ResultRow } from './results.ts';
import { colourOf, esc, num, type RuntimeLook } from './svg.ts';

/** A colour mixed with white: `share` 0 is the colour, 1 is white. */
export function lighter(colour: string, share: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) return colour;
  const mix = (i: number) =>
    Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - share) + 255 * share)
      .toString(16)
      .padStart(2, '0');
  return `#${mix(0)}${mix(2)}${mix(4)}`;
}

/**
 * How a series is drawn: its runtime's one hue, naive solid, hardened a lighter shade of it with
 * an outline in the full colour, so the two read apart without hovering, also on paper.
 */
export function seriesLook(colour: string, variant: string): { fill: string; stroke: string } {
  return variant === 'hardened' ? { fill: lighter(colour, 0.6), stroke: colour } : { fill: colour, stroke: colour };
}

/**
 * Extra model cost per crash point, one bar per runtime/variant row: the price of re-execution at a
 * glance. The legend lists the series in the order of the tables' rows.
 */
export function renderCostChart(rows: ResultRow[], runtimes: readonly RuntimeLook[], width = 900): string {
  const crashed = rows.filter((r) => r.crashPoint !== null);
  const points = CRASH_POINT_NAMES.filter((p) => crashed.some((r) => r.crashPoint === p));
  if (!points.length) return '<p class="empty">No crashed cells, so no extra cost to chart.</p>';
  // A bar of $0 for a model without a price would say "free": no chart rather than a wrong one.
  if (crashed.some((r) => r.extraCostUsd === null))
    return '<p class="empty">The model\'s price is unknown (not in the price table), so the extra cost cannot be charted; the extra calls and tokens are in the table.</p>';
  const max = Math.max(...crashed.map((r) => r.extraCostUsd ?? 0), 0);
  const top = 24;
  const plotH = 180;
  const left = 64;
  // A legend entry per runtime and variant, in the order the rows first appear in the tables.
  const legend: { key: string; label: string; variant: string; colour: string }[] = [];
  for (const r of crashed) {
    const key = `${r.runtime}/${r.variant}`;
    if (legend.some((l) => l.key === key)) continue;
    const title = runtimes.find((rt) => rt.name === r.runtime)?.title ?? r.runtime;
    legend.push({ key, label: `${title} ${r.variant}`, variant: r.variant, colour: colourOf(runtimes, r.runtime) });
  }
  // Wide enough for the longest label (10.5 px text), so no entry runs into the next.
  const entryW = Math.max(150, Math.ceil(30 + 6.4 * Math.max(0, ...legend.map((l) => l.label.length))));
  const perLine = Math.max(1, Math.floor((width - left) / entryW));
  const legendLines = Math.ceil(legend.length / perLine);
  const bottom = 42 + 22 * legendLines;
  const height = top + plotH + bottom;
  const groupW = (width - left - 10) / points.length;
  const y = (v: number) => top + plotH - (max > 0 ? (Math.max(0, v) / max) * plotH : 0);
  const parts: string[] = [];
  parts.push(
    `<svg class="cost-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="extra model cost per crash point and runtime">`,
  );
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    const yy = y(v);
    parts.push(
      `<line class="grid" x1="${left}" x2="${width - 10}" y1="${num(yy)}" y2="${num(yy)}"/><text class="axis" x="${left - 6}" y="${num(yy + 4)}" text-anchor="end">${esc(money(v))}</text>`,
    );
  }
  points.forEach((p, gi) => {
    const group = crashed.filter((r) => r.crashPoint === p);
    const gx = left + gi * groupW;
    const barW = Math.max(4, Math.min(22, (groupW - 12) / group.length - 2));
    group.forEach((r, bi) => {
      const bx = gx + 6 + bi * (barW + 2);
      const cost = r.extraCostUsd ?? 0;
      const by = y(cost);
      const h = Math.max(cost > 0 ? 1.5 : 0.5, top + plotH - by);
      const look = seriesLook(colourOf(runtimes, r.runtime), r.variant);
      parts.push(
        `<rect class="bar" data-series="${esc(`${r.runtime}/${r.variant}`)}" x="${num(bx)}" y="${num(top + plotH - h)}" width="${num(barW)}" height="${num(h)}" fill="${look.fill}" stroke="${look.stroke}" stroke-width="1.2"><title>${esc(`${p} · ${rowLabel(r)}: ${r.extraModelCalls} extra model call(s), ${r.extraTokens} tokens, ${money(r.extraCostUsd)}`)}</title></rect>`,
      );
    });
    parts.push(
      `<text class="axis group-label" x="${num(gx + groupW / 2)}" y="${top + plotH + 16}" text-anchor="middle">${esc(p)}</text>`,
    );
  });
  legend.forEach(({ key, label, variant, colour }, i) => {
    const lx = left + (i % perLine) * entryW;
    const ly = top + plotH + 50 + 22 * Math.floor(i / perLine);
    const look = seriesLook(colour, variant);
    parts.push(
      `<g class="legend-entry" data-series="${esc(key)}"><rect class="swatch" x="${lx}" y="${ly - 9}" width="12" height="12" fill="${look.fill}" stroke="${look.stroke}" stroke-width="1.2"/><text class="axis" x="${lx + 16}" y="${ly + 1}">${esc(label)}</text></g>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
