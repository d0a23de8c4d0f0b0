import { CRASH_POINT_NAMES } from '@vendor-review/pipeline/pure';
import { money, rowLabel } from '../table.ts';
import type { ResultRow } from './results.ts';
import { colourOf, esc, num, type RuntimeLook } from './svg.ts';

/**
 * Extra model cost per crash point, one bar per runtime/variant row: the price of re-execution at a
 * glance. Hardened rows are drawn lighter so the naive/hardened gap reads without a legend hunt.
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
  // A legend entry per runtime and variant present, as many to a line as fit.
  const legend = runtimes
    .filter((rt) => crashed.some((r) => r.runtime === rt.name))
    .flatMap((rt) =>
      (['naive', 'hardened'] as const)
        .filter((v) => crashed.some((r) => r.runtime === rt.name && r.variant === v))
        .map((v) => ({ label: `${rt.title} ${v}`, colour: rt.colour, cls: v === 'hardened' ? ' hardened' : '' })),
    );
  const entryW = 210;
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
      const light = r.variant === 'hardened' ? ' hardened' : '';
      parts.push(
        `<rect class="bar${light}" x="${num(bx)}" y="${num(top + plotH - h)}" width="${num(barW)}" height="${num(h)}" fill="${colourOf(runtimes, r.runtime)}"><title>${esc(`${p} · ${rowLabel(r)}: ${r.extraModelCalls} extra model call(s), ${r.extraTokens} tokens, ${money(r.extraCostUsd)}`)}</title></rect>`,
      );
    });
    parts.push(
      `<text class="axis group-label" x="${num(gx + groupW / 2)}" y="${top + plotH + 16}" text-anchor="middle">${esc(p)}</text>`,
    );
  });
  legend.forEach(({ label, colour, cls }, i) => {
    const lx = left + (i % perLine) * entryW;
    const ly = top + plotH + 50 + 22 * Math.floor(i / perLine);
    parts.push(
      `<rect class="bar${cls}" x="${lx}" y="${ly - 9}" width="12" height="12" fill="${colour}"/><text class="axis" x="${lx + 16}" y="${ly + 1}">${esc(label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
