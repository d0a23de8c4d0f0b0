import { esc, num } from '../report/svg.ts';
import { bytes, ms, us } from './format.ts';
import type { BenchReport } from './report.ts';
import { evaluate } from './stats.ts';
import { PROJECT_TO } from './storage.ts';
import { knobLabel } from './tables.ts';

/**
 * The four drawings of bench.html, inline SVG: per-step cost as a multiple of the floor, throughput,
 * storage growth against the limits a runtime's bench names, and the recovery trade. Each
 * runtime in its module's colour. No script, no network.
 */
const colourOf = (r: BenchReport) => (runtime: string) => r.meta.benched[runtime]?.colour ?? '#64748b';
const titleOf = (r: BenchReport, runtime: string) => r.meta.benched[runtime]?.title ?? runtime;

function svgOpen(width: number, height: number, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${esc(label)}">`;
}

const empty = (what: string) => `<p class="empty">No ${esc(what)} in this run.</p>`;

/** Horizontal bars: each configuration's step as a multiple of the plain runner's, p95 as a whisker. */
export function perStepChart(r: BenchReport, width = 900): string {
  const p = r.perStep;
  const colour = colourOf(r);
  const floor = p?.rows.find((x) => x.kind === 'floor')?.perStepUs?.median;
  if (!p || !floor) return empty('per-step figures');
  const rows = p.rows.filter((x) => x.perStepUs);
  const left = 380;
  const rowH = 20;
  const top = 22;
  const height = top + rows.length * rowH + 46;
  const max = Math.max(...rows.map((x) => x.perStepUs!.p95 / floor), 1);
  const x = (v: number) => left + (v / max) * (width - left - 70);
  const parts = [svgOpen(width, height, 'per-step cost as a multiple of the floor')];
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    parts.push(
      `<line class="grid" x1="${num(x(v))}" x2="${num(x(v))}" y1="${top - 6}" y2="${top + rows.length * rowH}"/><text class="axis" x="${num(x(v))}" y="${top + rows.length * rowH + 14}" text-anchor="middle">×${v.toFixed(v < 10 ? 1 : 0)}</text>`,
    );
  }
  rows.forEach((row, i) => {
    const y = top + i * rowH;
    const m = row.perStepUs!.median / floor;
    const p95 = row.perStepUs!.p95 / floor;
    parts.push(
      `<text class="axis label" x="${left - 8}" y="${y + 13}" text-anchor="end">${esc(row.label)}</text>`,
      `<rect class="bar${row.kind === 'bare' || row.kind === 'replay' || row.kind === 'ours' ? ' hardened' : ''}" x="${left}" y="${y + 3}" width="${num(Math.max(1, x(m) - left))}" height="${rowH - 7}" fill="${colour(row.runtime)}"><title>${esc(`${row.label}: ${us(row.perStepUs!.median)} a step (p95 ${us(row.perStepUs!.p95)}), ×${m.toFixed(2)} the floor`)}</title></rect>`,
      `<line class="whisker" x1="${num(x(m))}" x2="${num(x(p95))}" y1="${y + rowH / 2}" y2="${y + rowH / 2}"/>`,
      `<text class="axis" x="${num(x(p95) + 4)}" y="${y + 13}">×${m.toFixed(1)}</text>`,
    );
  });
  parts.push(
    `<text class="axis" x="${left}" y="${height - 18}">median per step ÷ the plain runner's (${us(floor)}); whisker to p95</text>`,
    `<text class="axis" x="${left}" y="${height - 5}">light bars: no domain work (the runtime bare; carrying our state, steps replayed; with our code, steps replayed)</text>`,
    '</svg>',
  );
  return parts.join('');
}

/** Grouped bars: reviews per second by concurrency, one bar per runtime, variant and process count. */
export function throughputChart(r: BenchReport, width = 900): string {
  const t = r.throughput;
  if (!t?.length) return empty('throughput figures');
  const colour = colourOf(r);
  const groups = [...new Set(t.map((c) => c.concurrency))].sort((a, b) => a - b);
  const series = [...new Set(t.map((c) => `${c.runtime}|${c.mode}|${c.processes}`))];
  const max = Math.max(...t.map((c) => c.reviewsPerSecond ?? 0), 0.1);
  const top = 20;
  const plotH = 190;
  const left = 56;
  const height = top + plotH + 40 + 18 * Math.ceil(series.length / 3);
  const groupW = (width - left - 10) / groups.length;
  const barW = Math.min(36, (groupW - 20) / series.length - 3);
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const parts = [svgOpen(width, height, 'reviews per second by concurrency')];
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    parts.push(
      `<line class="grid" x1="${left}" x2="${width - 10}" y1="${num(y(v))}" y2="${num(y(v))}"/><text class="axis" x="${left - 6}" y="${num(y(v) + 4)}" text-anchor="end">${v.toFixed(1)}</text>`,
    );
  }
  groups.forEach((g, gi) => {
    const gx = left + gi * groupW + 10;
    series.forEach((s, si) => {
      const [runtime, mode, procs] = s.split('|');
      const c = t.find((x) => x.concurrency === g && `${x.runtime}|${x.mode}|${x.processes}` === s);
      if (!c || c.reviewsPerSecond === null) return;
      const bx = gx + si * (barW + 3);
      parts.push(
        `<rect class="bar${procs === '2' ? ' hardened' : ''}" x="${num(bx)}" y="${num(y(c.reviewsPerSecond))}" width="${num(barW)}" height="${num(top + plotH - y(c.reviewsPerSecond))}" fill="${colour(runtime!)}"${mode === 'naive' ? ' stroke="#0f172a" stroke-dasharray="3 2"' : ''}><title>${esc(`${runtime} ${mode}, ${procs} process(es), ${g} at once: ${c.reviewsPerSecond} reviews/s, ${c.cpuSecondsPerReview.total ?? '—'} CPU s/review`)}</title></rect>`,
        `<text class="axis" x="${num(bx + barW / 2)}" y="${num(y(c.reviewsPerSecond) - 3)}" text-anchor="middle">${c.reviewsPerSecond.toFixed(1)}</text>`,
      );
    });
    parts.push(
      `<text class="axis" x="${num(gx + (series.length * (barW + 3)) / 2)}" y="${top + plotH + 15}" text-anchor="middle">${g} at once</text>`,
    );
  });
  series.forEach((s, i) => {
    const [runtime, mode, procs] = s.split('|');
    const lx = left + (i % 3) * 250;
    const ly = top + plotH + 36 + Math.floor(i / 3) * 18;
    parts.push(
      `<rect class="bar${procs === '2' ? ' hardened' : ''}" x="${lx}" y="${ly - 9}" width="12" height="12" fill="${colour(runtime!)}"/><text class="axis" x="${lx + 16}" y="${ly + 1}">${esc(`${runtime} ${mode}, ${procs} process${procs === '1' ? '' : 'es'}`)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

/** Bytes per finished run against requirements on a log scale: measured points, the fit projected, the limits. */
export function storageChart(r: BenchReport, width = 900): string {
  const s = r.storage;
  if (!s?.cells.length) return empty('storage figures');
  const colour = colourOf(r);
  const top = 16;
  const left = 70;
  const plotW = width - left - 190;
  const plotH = 260;
  const height = top + plotH + 40;
  const lo = 1024;
  const hi = 1024 ** 3;
  const x = (n: number) => left + (n / PROJECT_TO) * plotW;
  const y = (b: number) =>
    top +
    plotH -
    ((Math.log10(Math.max(lo, Math.min(hi, b))) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotH;
  const parts = [svgOpen(width, height, 'stored bytes per run by requirements')];
  for (const b of [1024, 16 * 1024, 256 * 1024, 4 * 1024 ** 2, 64 * 1024 ** 2, 1024 ** 3]) {
    parts.push(
      `<line class="grid" x1="${left}" x2="${left + plotW}" y1="${num(y(b))}" y2="${num(y(b))}"/><text class="axis" x="${left - 6}" y="${num(y(b) + 4)}" text-anchor="end">${esc(bytes(b))}</text>`,
    );
  }
  for (const n of [0, 10, 20, 40, 60, 80])
    parts.push(`<text class="axis" x="${num(x(n))}" y="${top + plotH + 14}" text-anchor="middle">${n}</text>`);
  parts.push(
    `<text class="axis" x="${num(left + plotW / 2)}" y="${top + plotH + 30}" text-anchor="middle">requirements (measured up to ${Math.max(...s.sizes)}, the request schema's limit; dashed: the fit, projected)</text>`,
  );
  for (const [label, b] of Object.entries(s.limits).flatMap(([runtime, l]) => [
    [`${titleOf(r, runtime)}'s limit on one payload, ${bytes(l.payloadBytes)}`, l.payloadBytes] as const,
    [`${titleOf(r, runtime)}'s limit on a history, ${bytes(l.historyBytes)}`, l.historyBytes] as const,
  ]))
    parts.push(
      `<line class="limit" x1="${left}" x2="${left + plotW}" y1="${num(y(b))}" y2="${num(y(b))}"/><text class="axis limit-label" x="${left + 4}" y="${num(y(b) - 4)}">${esc(label)}</text>`,
    );
  const keys = [...new Set(s.cells.filter((c) => c.pagesPerRequirement === null).map((c) => `${c.runtime}|${c.mode}`))];
  const labels: { y: number; text: string; runtime: string }[] = [];
  for (const key of keys) {
    const [runtime, mode] = key.split('|') as [string, string];
    const pts = s.cells
      .filter((c) => c.ok && c.pagesPerRequirement === null && `${c.runtime}|${c.mode}` === key)
      .sort((a, b) => a.requirements - b.requirements);
    const fit = s.projections.find((p) => p.runtime === runtime && p.mode === mode);
    if (fit && pts.length) {
      const first = pts[0]!.requirements;
      const last = pts.at(-1)!.requirements;
      const path = (from: number, to: number) =>
        Array.from({ length: to - from + 1 }, (_, i) => from + i)
          .map((n, i) => `${i ? 'L' : 'M'}${num(x(n))},${num(y(evaluate(fit.bytesFit, n)))}`)
          .join(' ');
      parts.push(
        `<path class="fit" d="${path(first, last)}" stroke="${colour(runtime)}"/>`,
        `<path class="fit" d="${path(last, PROJECT_TO)}" stroke="${colour(runtime)}" stroke-dasharray="5 4"/>`,
      );
      const same = labels.find((l) => Math.abs(l.y - y(fit.bytesAt80)) < 1 && l.runtime === runtime);
      if (same) same.text += ` = ${mode}`;
      else labels.push({ y: y(fit.bytesAt80), text: `${runtime} ${mode}`, runtime });
    }
    for (const c of pts)
      parts.push(
        `<circle cx="${num(x(c.requirements))}" cy="${num(y(c.bytes))}" r="3.5" fill="${colour(runtime)}"><title>${esc(`${runtime} ${mode}, ${c.requirements} requirements: ${bytes(c.bytes)}`)}</title></circle>`,
      );
  }
  // Labels at the right end of their curves, pushed apart where curves end close together.
  labels.sort((a, b) => a.y - b.y);
  for (let i = 1; i < labels.length; i++) labels[i]!.y = Math.max(labels[i]!.y, labels[i - 1]!.y + 13);
  for (const l of labels)
    parts.push(
      `<text class="axis" x="${left + plotW + 6}" y="${num(l.y + 4)}" fill="${colour(l.runtime)}">${esc(l.text)}</text>`,
    );
  parts.push('</svg>');
  return parts.join('');
}

/** One panel per knob: crash → progress (median, min–max) by setting, and the runs a live worker lost under load. */
export function recoveryChart(r: BenchReport, width = 900): string {
  const rec = r.recovery;
  if (!rec?.points.length && !rec?.takeovers.length) return empty('recovery figures');
  const colour = colourOf(r);
  const knobs = [
    ...new Set([
      ...rec.points.map((p) => `${p.runtime}|${p.knob}`),
      ...rec.takeovers.map((t) => `${t.runtime}|${t.knob}`),
    ]),
  ];
  const panelW = width / knobs.length;
  const top = 30;
  const plotH = 180;
  const height = top + plotH + 58;
  const parts = [svgOpen(width, height, 'recovery time and false takeovers by timeout setting')];
  knobs.forEach((key, ki) => {
    const [runtime, knob] = key.split('|') as [string, string];
    const points = rec.points.filter((p) => p.runtime === runtime && p.knob === knob);
    const loaded = rec.takeovers.filter((t) => t.runtime === runtime && t.knob === knob);
    const values = [...new Set([...points.map((p) => p.value), ...loaded.map((t) => t.value)])].sort((a, b) => a - b);
    const maxY = Math.max(1000, ...points.map((p) => p.recoveryMs?.max ?? 0), ...values);
    const x0 = ki * panelW + 50;
    const w = panelW - 70;
    const x = (i: number) => x0 + (values.length === 1 ? w / 2 : (i / (values.length - 1)) * w);
    const y = (v: number) => top + plotH - (v / maxY) * plotH;
    parts.push(
      `<text class="axis panel-title" x="${num(x0)}" y="14">${esc(`${titleOf(r, runtime)}: ${knobLabel(r, runtime, knob)}`)}</text>`,
    );
    for (let i = 0; i <= 4; i++) {
      const v = (maxY * i) / 4;
      parts.push(
        `<line class="grid" x1="${num(x0)}" x2="${num(x0 + w)}" y1="${num(y(v))}" y2="${num(y(v))}"/><text class="axis" x="${num(x0 - 4)}" y="${num(y(v) + 4)}" text-anchor="end">${(v / 1000).toFixed(1)} s</text>`,
      );
    }
    // A dash at each setting's own height: recovery equal to the timeout itself.
    values.forEach((v, i) =>
      parts.push(
        `<line class="diagonal" x1="${num(x(i) - 12)}" x2="${num(x(i) + 12)}" y1="${num(y(v))}" y2="${num(y(v))}"/>`,
      ),
    );
    values.forEach((v, i) => {
      const p = points.find((q) => q.value === v);
      const t = loaded.find((q) => q.value === v);
      parts.push(
        `<text class="axis" x="${num(x(i))}" y="${top + plotH + 14}" text-anchor="middle">${esc(ms(v))}</text>`,
      );
      if (p?.recoveryMs) {
        parts.push(
          `<line class="whisker" x1="${num(x(i))}" x2="${num(x(i))}" y1="${num(y(p.recoveryMs.min))}" y2="${num(y(p.recoveryMs.max))}"/>`,
          `<circle cx="${num(x(i))}" cy="${num(y(p.recoveryMs.median))}" r="4.5" fill="${colour(runtime)}"><title>${esc(`${ms(v)}: crash → progress ${ms(p.recoveryMs.median)} (${ms(p.recoveryMs.min)}–${ms(p.recoveryMs.max)}, ${p.recoveryMs.n} kills)`)}</title></circle>`,
        );
      }
      if (t)
        parts.push(
          `<text class="axis ${t.lost ? 'lost' : 'kept'}" x="${num(x(i))}" y="${top + plotH + 30}" text-anchor="middle">${t.lost}/${t.runs} lost</text>`,
        );
    });
  });
  parts.push(
    `<text class="axis" x="50" y="${top + plotH + 50}">dot: crash → progress, median, whisker min–max; dash: the setting itself; below the axis: runs a live worker lost under load</text>`,
    '</svg>',
  );
  return parts.join('');
}
