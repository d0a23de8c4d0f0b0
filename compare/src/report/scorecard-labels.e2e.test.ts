import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAZARD_IDS, HAZARDS } from '@vendor-review/conformance';
import { inside, layOutScorecard } from '../../test/browser.ts';
import { fixtureResults, hazardObservation } from '../../test/fixture-results.ts';
import { RUNTIME_NAMES, runtimeInfos } from '../runtimes.ts';
import { toHtml } from './render-html.ts';
import { resultsDocument } from './results-document.ts';
import { buildProductionRows, crashRows, type Results } from './results.ts';

/**
 * The scorecard's words stay inside their cells on a laptop's screen and a narrower window: every
 * registered runtime in both variants (the widest card a default run draws), every hazard, and in
 * each hazard's cells its longest verdicts (`duplicated-effects`, `collapsed-by-key`,
 * `repeated-the-takeover`…), laid out by Chromium at 1,400 and 1,000 px.
 */
const WIDTHS = [1400, 1000];

async function widestCard(): Promise<Results> {
  const infos = await runtimeInfos(RUNTIME_NAMES);
  const labelOf = (name: string) => infos.find((i) => i.name === name)?.label ?? name;
  const base = fixtureResults();
  const template = crashRows(base).filter((r) => r.runtime === 'checkpointer');
  const crash = infos.flatMap((info) =>
    template.map((r) => ({ ...r, runtime: info.name, runtimeLabel: info.label, cellId: `${info.name}/${r.cellId}` })),
  );
  const columns = infos.flatMap((info) => (['naive', 'hardened'] as const).map((variant) => ({ info, variant })));
  const hazards = HAZARD_IDS.flatMap((hazard) => {
    const verdicts = Object.keys(HAZARDS[hazard].verdicts).sort((a, b) => b.length - a.length);
    return columns.map(({ info, variant }, i) =>
      hazardObservation({ hazard, runtime: info.name, variant, deviations: [] }, verdicts[i % verdicts.length]!),
    );
  });
  return {
    ...base,
    rows: [...crash, ...buildProductionRows(hazards, labelOf)],
    meta: { ...base.meta, runtimes: infos.map(({ name, label, title, colour }) => ({ name, label, title, colour })) },
  };
}

describe('the scorecard in report.html, as Chromium lays it out', () => {
  it('keeps every verdict and heading inside its cell at 1,400 and 1,000 px, broken only between words', async () => {
    const results = await widestCard();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'compare-scorecard-')), 'report.html');
    writeFileSync(file, toHtml(resultsDocument(results)));
    const laidOut = await layOutScorecard(file, WIDTHS);
    for (const width of WIDTHS) {
      const labels = laidOut.get(width)!;
      const verdicts = labels.filter((l) => l.line !== '');
      // The card is the widest one: a column per runtime and variant, and the long verdicts are on it.
      expect(new Set(verdicts.map((l) => l.column)).size).toBe(2 * RUNTIME_NAMES.length);
      for (const word of ['duplicated-effects', 'collapsed-by-key', 'repeated-the-takeover'])
        expect(verdicts.some((l) => l.word === word)).toBe(true);
      const where = (l: (typeof labels)[number]) => `${l.word} (${l.line || 'heading'}, ${l.column})`;
      const outside = labels
        .filter((l) => !inside(l.label, l.cell))
        .map((l) => `${where(l)}: ${Math.round(l.label.width)} px in ${Math.round(l.cell.width)}`);
      expect(outside, `at ${width} px`).toEqual([]);
      // Readable: a label breaks only at its hyphens and spaces, never inside a word, and is not shrunk past 10 px.
      const brokenInWords = labels
        .filter((l) => l.lines.length > l.word.split(/[-\s]+/).length)
        .map((l) => `${where(l)}: ${l.lines.length} lines`);
      expect(brokenInWords, `at ${width} px`).toEqual([]);
      expect(Math.min(...labels.map((l) => l.fontSize)), `at ${width} px`).toBeGreaterThanOrEqual(10);
    }
  }, 60_000);
});
