import type { DurableMark, DurableRecord, HazardObservation } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { renderProductionSections } from './production-table.ts';
import type { ProductionRow } from './results.ts';
import { renderWritersChart } from './writers-chart.ts';

const cp = (id: string, parentId: string | null, writer: string, order: number): DurableMark => ({
  id,
  kind: 'checkpoint',
  at: null,
  step: 'EXTRACT',
  short: id,
  long: `checkpoint ${id}`,
  parentId,
  writer,
  order,
});

/** Z wrote up to c1; A and B both continued from it. */
const forked: DurableRecord = {
  runtime: 'checkpointer',
  kind: 'checkpoints',
  marks: [
    cp('c0', null, 'Z', -1),
    cp('c1', 'c0', 'Z', 0),
    cp('a2', 'c1', 'A', 1),
    cp('b2', 'c1', 'B', 1),
    cp('a3', 'a2', 'A', 2),
  ],
};

describe('the two writers, drawn from the durable record', () => {
  it('a forked chain: a lane per writer, a line per parent, the fork ringed', () => {
    const svg = renderWritersChart(forked);
    expect(svg).toMatch(/^<svg class="writers"/);
    expect([...svg.matchAll(/<text[^>]*>([^<]+)<\/text>/g)].map((m) => m[1])).toEqual(['Z', 'A', 'B']);
    expect(svg.match(/class="edge/g)).toHaveLength(4);
    expect(svg.match(/class="fork"/g)).toHaveLength(1);
    expect(svg).toContain('<title>checkpoint b2, written by B</title>');
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/); // nothing fetched
  });

  it('a history: one chain in order, no fork, the harness’s client and the machinery left out', () => {
    const ev = (id: number, writer: string | null, step: string | null, bookkeeping = false): DurableMark => ({
      id: String(id),
      kind: 'event',
      at: null,
      step,
      short: `#${id}`,
      long: `history event ${id}`,
      writer,
      order: id,
      bookkeeping,
    });
    const svg = renderWritersChart({
      runtime: 'journal',
      kind: 'history',
      marks: [
        ev(1, '4581', null),
        ev(5, 'Z', 'VALIDATE'),
        ev(6, 'Z', null, true),
        ev(9, 'A', 'EXTRACT'),
        ev(12, 'A', 'DRAFT'),
      ],
    });
    expect([...svg.matchAll(/<text[^>]*>([^<]+)<\/text>/g)].map((m) => m[1])).toEqual(['Z', 'A']);
    expect(svg.match(/<circle cx/g)).toHaveLength(3);
    expect(svg.match(/class="edge/g)).toHaveLength(2);
    expect(svg).not.toContain('class="fork"');
  });

  it('report.html draws it under the two-writers rows only, from the row’s own run', () => {
    const row = (scenario: 'two-writers' | 'zombie', runId: string): ProductionRow => ({
      suite: 'production',
      scenario,
      section: scenario,
      title: scenario,
      runtime: 'checkpointer',
      runtimeLabel: 'CP',
      variant: 'naive',
      verdict: 'forked',
      verdictText: null,
      expected: 'forked',
      deviation: null,
      violations: [],
      figures: {},
      status: 'ran',
      note: null,
      runId,
      wallMs: 1,
      repetitions: 1,
      dependsOnTiming: false,
      variesAcrossRepeats: false,
      outcomes: [],
    });
    const obs = (runId: string) => ({ runId, durable: forked }) as HazardObservation;
    const html = renderProductionSections([row('two-writers', 'r1'), row('zombie', 'r2')], [obs('r2'), obs('r1')]);
    expect(html.match(/<svg class="writers"/g)).toHaveLength(1);
    expect(html.indexOf('<svg')).toBeGreaterThan(html.indexOf('data-hazard="two-writers"'));
    expect(html.indexOf('<svg')).toBeLessThan(html.indexOf('data-hazard="zombie"'));
  });
});
