import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../test/browser.ts';
import { fixtureObservations, fixtureResults } from '../../test/fixture-results.ts';
import { toHtml } from './render-html.ts';
import { resultsDocument } from './results-document.ts';
import { crashRows } from './results.ts';
import { buildScorecard } from './scorecard.ts';

describe('report.html', () => {
  const observations = fixtureObservations();
  const results = fixtureResults(observations);
  const html = toHtml(resultsDocument(results, { observations: { crash: observations } }));

  it('is self-contained: no script, no external reference', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/i);
  });

  it('highlights the re-executed operation and marks the crash', () => {
    expect(html).toContain('class="op op-model op-repeat"');
    expect(html).toContain('class="crash-marker"');
  });

  it('opens in headless Chromium without errors, every timeline drawn', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compare-html-'));
    const file = path.join(dir, 'report.html');
    writeFileSync(file, html);
    const r = await renderReport(file);
    expect(r.errors).toEqual([]);
    expect(r.requests).toEqual([]);
    expect(r.title).toMatch(/Checkpointer and Journal/);
    expect(r.cells).toHaveLength(crashRows(results).length);
    for (const c of r.cells) {
      expect(c.drawn, c.cell).toBeGreaterThan(0);
      expect(c.ops, c.cell).toBeGreaterThan(0);
      expect(c.timelineWidth, c.cell).toBeGreaterThan(300);
      expect(c.crashMarkers, c.cell).toBe(c.cell.endsWith('/baseline') ? 0 : 1);
    }
    expect(r.bars).toBeGreaterThanOrEqual(12);

    // The scorecard: a column per runtime × variant, a line per crash point and hazard, every cell
    // a link that lands on the row behind it, and a naive duplicate drawn unlike a hardened read.
    const card = buildScorecard(results);
    expect(r.scorecard.columns).toEqual(card.columns.map((c) => c.label));
    const filled = card.lines.flatMap((l) =>
      l.cells.filter((c) => c !== null).map((c) => ({ line: l.id, word: c!.word })),
    );
    expect(r.scorecard.cells.filter((c) => c.word !== '—').map(({ line, word }) => ({ line, word }))).toEqual(filled);
    for (const c of r.scorecard.cells.filter((x) => x.word !== '—'))
      expect(c.linksToRow, `${c.line} ${c.word}`).toBe(true);
    const deliver = r.scorecard.cells.filter((c) => c.line === 'after-deliver');
    expect(deliver.map((c) => c.word)).toEqual(['twice', 'read', 'twice', 'read']);
    expect(deliver[0]!.background).not.toBe(deliver[1]!.background);
  }, 60_000);
});
