import { describe, expect, it } from 'vitest';
import { fixtureResults } from '../../test/fixture-results.ts';
import { toMarkdown } from './render-markdown.ts';
import { resultsDocument } from './results-document.ts';
import { renderProduction } from './production-table.ts';
import { productionRows } from './results.ts';

describe('production hazard rows', () => {
  const rows = productionRows(fixtureResults());

  it('judge each row against what its variant must show, or what its runtime documents', () => {
    const [lgHardened, tmNaive, tmHardened] = rows;
    expect(lgHardened).toMatchObject({
      suite: 'production',
      verdict: 'dead-lettered',
      expected: 'dead-lettered',
      violations: [],
      deviation: null,
    });
    expect(tmNaive).toMatchObject({ verdict: 'retried-permanent', expected: 'retried-permanent', violations: [] });
    expect(tmNaive!.deviation).toMatch(/default retry policy/);
    expect(tmHardened!.violations).toEqual([
      'looks-stuck: still retrying past any cap: running, no dead letter, nobody told; expected dead-lettered: gave up at the cap: failed, with the input, the error and the attempts in a dead letter',
    ]);
  });

  it('the terminal shows a section, the verdicts with their figures, the lesson, and marks a row that does not conform', () => {
    const text = renderProduction(rows, { color: false, width: 120 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('retries — Retry the transient, not the permanent');
    expect(lines[1]).toBe('  the tracker refuses the note with a 422');
    expect(lines[2]).toMatch(/^ {4}LG hardened +dead-lettered +attempts 1 · dead letter SAVE_PROGRESS/);
    expect(lines[3]).toMatch(/^ {4}TM naive +retried-permanent +attempts 3 · seconds watched 3\.2 \(documented\)$/);
    expect(lines[4]).toMatch(/^ {4}TM hardened +looks-stuck +attempts 7 · no dead letter ✗ not what it must show$/);
    expect(text).toMatch(/^ {2}▸ A rate limit or a 503 may clear/m);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(120);
  });

  it('results.md has the production section', () => {
    const md = toMarkdown(resultsDocument(fixtureResults()));
    expect(md).toContain('# Production hazards');
    expect(md).toContain('| TM hardened | looks-stuck | attempts 7 · no dead letter | **no**: looks-stuck:');
  });
});
