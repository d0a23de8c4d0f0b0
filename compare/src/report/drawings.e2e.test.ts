import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellObservation } from '@vendor-review/conformance';
import { overlap, renderDrawings } from '../../test/browser.ts';
import { fixtureObservations, fixtureResults } from '../../test/fixture-results.ts';
import { RUNTIME_NAMES, runtimeInfos } from '../runtimes.ts';
import { toHtml } from './render-html.ts';
import { resultsDocument } from './results-document.ts';
import { crashRows, type Results } from './results.ts';

/** A colour's hue in degrees, or null for a grey (too little saturation to read as a hue). */
function hue(colour: string): number | null {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const s = max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
  if (s < 0.15) return null;
  const h = max === r ? ((g - b) / (max - min)) % 6 : max === g ? (b - r) / (max - min) + 2 : (r - g) / (max - min) + 4;
  return (h * 60 + 360) % 360;
}

const file = (html: string) => {
  const f = path.join(mkdtempSync(path.join(os.tmpdir(), 'compare-drawings-')), 'report.html');
  writeFileSync(f, html);
  return f;
};

describe('the report’s drawings, as Chromium lays them out', () => {
  it('every registered runtime has a hue of its own (or is the one grey)', async () => {
    const infos = await runtimeInfos(RUNTIME_NAMES);
    const hues = infos.map((i) => ({ name: i.name, hue: hue(i.colour) }));
    expect(hues.filter((h) => h.hue === null).length).toBeLessThanOrEqual(1);
    const coloured = hues.filter((h): h is { name: string; hue: number } => h.hue !== null);
    for (const a of coloured)
      for (const b of coloured.filter((x) => x !== a)) {
        const apart = Math.min(Math.abs(a.hue - b.hue), 360 - Math.abs(a.hue - b.hue));
        expect(apart, `${a.name} and ${b.name}`).toBeGreaterThanOrEqual(30);
      }
  });

  it('the cost chart tells every series apart without hovering, its legend in the tables’ order', async () => {
    const infos = await runtimeInfos(RUNTIME_NAMES);
    const base = fixtureResults();
    const template = crashRows(base).filter((r) => r.runtime === 'checkpointer' && r.crashPoint !== null);
    // Every registered runtime in both variants: ten series on the machine measured.
    const rows = infos.flatMap((info) =>
      template.map((r) => ({ ...r, runtime: info.name, runtimeLabel: info.label, cellId: `${info.name}/${r.cellId}` })),
    );
    const results: Results = {
      ...base,
      rows,
      meta: { ...base.meta, runtimes: infos.map(({ name, label, title, colour }) => ({ name, label, title, colour })) },
    };
    const r = await renderDrawings(file(toHtml(resultsDocument(results))));
    expect(r.errors).toEqual([]);
    const order = [...new Set(rows.map((x) => `${x.runtime}/${x.variant}`))];
    expect(order).toHaveLength(2 * infos.length);
    expect(r.legend.map((l) => l.series)).toEqual(order);
    // Each series is drawn one way of its own, and every bar like its legend entry.
    const looks = r.legend.map((l) => `${l.fill} ${l.stroke}`);
    expect(new Set(looks).size).toBe(looks.length);
    for (const bar of r.bars) {
      const entry = r.legend.find((l) => l.series === bar.series)!;
      expect(`${bar.fill} ${bar.stroke}`, bar.series).toBe(`${entry.fill} ${entry.stroke}`);
    }
    // Naive and hardened of one runtime share its hue (the stroke), the hardened fill lighter.
    for (const info of infos) {
      const naive = r.legend.find((l) => l.series === `${info.name}/naive`)!;
      const hardened = r.legend.find((l) => l.series === `${info.name}/hardened`)!;
      expect(hardened.stroke).toBe(naive.stroke);
      expect(hardened.fill).not.toBe(naive.fill);
    }
    for (const a of r.legend)
      for (const b of r.legend.filter((x) => x !== a))
        expect(overlap(a.box, b.box), `${a.label} / ${b.label}`).toBe(false);
  }, 60_000);

  it('a cell’s timeline never prints two labels over each other, also when the approval and the kill are close', async () => {
    const observations = fixtureObservations().map((o): CellObservation => {
      if (o.scenario.crashPoint !== 'after-deliver' || !o.crash) return o;
      // The approval a few milliseconds before the kill, as when the mail goes out right after it.
      return { ...o, approvals: [{ at: o.crash.at - 5, aliveWorker: 'A', decision: { approved: true, by: 'test' } }] };
    });
    const results = fixtureResults(observations);
    const r = await renderDrawings(file(toHtml(resultsDocument(results, { observations: { crash: observations } }))));
    expect(r.errors).toEqual([]);
    const close = r.timelines.filter((t) => t.id.endsWith('/after-deliver'));
    expect(close.length).toBe(crashRows(results).filter((x) => x.crashPoint === 'after-deliver').length);
    for (const t of close) {
      expect(t.labels.map((l) => l.text)).toContain('approved');
      expect(t.labels.map((l) => l.text)).toContain('✕ after-deliver (SIGKILL)');
    }
    for (const t of r.timelines) {
      for (const [i, a] of t.labels.entries()) {
        // Inside the drawing…
        expect(a.box.x, `${t.id}: ${a.text}`).toBeGreaterThanOrEqual(t.svg.x - 0.5);
        expect(a.box.x + a.box.width, `${t.id}: ${a.text}`).toBeLessThanOrEqual(t.svg.x + t.svg.width + 0.5);
        // …and clear of every other label.
        for (const b of t.labels.slice(i + 1))
          expect(overlap(a.box, b.box), `${t.id}: "${a.text}" over "${b.text}"`).toBe(false);
      }
    }
  }, 60_000);
});
