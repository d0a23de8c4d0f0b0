import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HAZARDS,
  HAZARD_IDS,
  HAZARDS,
  type HazardId,
  type HazardObservation,
} from '@vendor-review/conformance';
import { FAKE_RUNTIMES } from '@vendor-review/conformance/fixtures';
import { fixtureResults } from '../../test/fixture-results.ts';
import { toHtml } from './render-html.ts';
import { toMarkdown } from './render-markdown.ts';
import { toText } from './render-text.ts';
import { resultsDocument } from './results-document.ts';
import { renderProduction } from './production-table.ts';
import { buildProductionRows, productionRows } from './results.ts';
import { buildScorecard } from './scorecard.ts';

describe('production hazard rows', () => {
  const rows = productionRows(fixtureResults());

  it('judge each row against what its variant must show, or what its runtime documents', () => {
    const [cpHardened, jnNaive, jnHardened] = rows;
    expect(cpHardened).toMatchObject({
      suite: 'production',
      verdict: 'dead-lettered',
      expected: 'dead-lettered',
      violations: [],
      deviation: null,
    });
    expect(jnNaive).toMatchObject({ verdict: 'retried-permanent', expected: 'retried-permanent', violations: [] });
    expect(jnNaive!.deviation).toMatch(/default retry policy/);
    expect(jnHardened!.violations).toEqual([
      'looks-stuck: still retrying past any cap: running, no dead letter, nobody told; expected dead-lettered: gave up at the cap: failed, with the input, the error and the attempts in a dead letter',
    ]);
  });

  it('the terminal shows a section, the verdicts with their figures, the lesson, and marks a row that does not conform', () => {
    const text = renderProduction(rows, { color: false, width: 120 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('retries — Retry the transient, not the permanent');
    expect(lines[1]).toBe('  the tracker refuses the note with a 422');
    expect(lines[2]).toMatch(/^ {4}CP hardened +dead-lettered +attempts 1 · dead letter SAVE_PROGRESS/);
    expect(lines[3]).toMatch(/^ {4}JN naive +retried-permanent +attempts 3 · seconds watched 3\.2 \(documented\)$/);
    expect(lines[4]).toMatch(/^ {4}JN hardened +looks-stuck +attempts 7 · no dead letter ✗ not what it must show$/);
    expect(text).toMatch(/^ {2}▸ A rate limit or a 503 may clear/m);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(120);
  });

  it('results.md has the production section', () => {
    const md = toMarkdown(resultsDocument(fixtureResults()));
    expect(md).toContain('# Production hazards');
    expect(md).toContain('| JN hardened | looks-stuck | attempts 7 · no dead letter | **no**: looks-stuck:');
  });
});

describe('a hazard row whose verdict depends on timing', () => {
  const scenario = {
    hazard: 'restart-server' as const,
    runtime: 'journal',
    variant: 'naive' as const,
    deviations: FAKE_RUNTIMES.journal.hazardDeviations ?? [],
  };
  const run = (repetition: number, verdict: string, harm: HazardObservation['harm']): HazardObservation => ({
    scenario: { ...scenario, id: 'restart-server/journal/naive' },
    repetition,
    status: 'ran',
    verdict,
    figures: { 'effects twice': harm.sideEffectDuplicated ? 1 : 0 },
    runId: `rev-restart-${repetition}`,
    note: null,
    startedAt: 0,
    endedAt: 1000 * (repetition + 1),
    ledger: [],
    durable: null,
    harm,
  });
  const clean = { repeatedByKind: {}, sideEffectDuplicated: false };
  const twice = { repeatedByKind: { tracker: 1 }, sideEffectDuplicated: true };

  it('run three times (--full), shows how often each outcome came, and the worst run’s verdict and figures', () => {
    const [row] = buildProductionRows([
      run(0, 'rode-it-out', clean),
      run(1, 'duplicated-effects', twice),
      run(2, 'rode-it-out', clean),
    ]);
    expect(row).toMatchObject({
      repetitions: 3,
      dependsOnTiming: true,
      variesAcrossRepeats: true,
      verdict: 'duplicated-effects',
      figures: { 'effects twice': 1 },
      runId: 'rev-restart-1',
      violations: [],
      expected: 'rode-it-out or duplicated-effects',
    });
    expect(row!.outcomes.map((o) => [o.verdict, o.count])).toEqual([
      ['rode-it-out', 2],
      ['duplicated-effects', 1],
    ]);
    const said =
      'over 3 runs: rode-it-out (nothing repeated) 2/3 · duplicated-effects (tracker+1, an effect twice) 1/3';
    const results = { ...fixtureResults(), rows: [row!] };
    expect(toMarkdown(resultsDocument(results))).toContain(said);
    expect(toHtml(resultsDocument(results))).toContain(said);
    expect(toText(resultsDocument(results)).replace(/\s+/g, ' ')).toContain(said);
    // The scorecard colours the row by its worst run, and its hover says what each share was.
    const cell = buildScorecard(results).lines[0]!.cells.find((c) => c !== null)!;
    expect(cell).toMatchObject({ severity: 'effect', word: 'duplicated-effects' });
    expect(cell.detail).toContain('rode-it-out (nothing repeated) 2/3');
  });

  it('three runs that agreed still say so: a distribution of one outcome, not one sample', () => {
    const rows = buildProductionRows([
      run(0, 'rode-it-out', clean),
      run(1, 'rode-it-out', clean),
      run(2, 'rode-it-out', clean),
    ]);
    expect(rows[0]).toMatchObject({ repetitions: 3, variesAcrossRepeats: false });
    expect(toMarkdown(resultsDocument({ ...fixtureResults(), rows }))).toContain(
      'over 3 runs: rode-it-out (nothing repeated) 3/3',
    );
  });

  it('run once (the default), it says it varies and how to see the rest', () => {
    const [row] = buildProductionRows([run(0, 'rode-it-out', clean)]);
    expect(row).toMatchObject({ repetitions: 1, dependsOnTiming: true, variesAcrossRepeats: false });
    const said = 'one run of a hazard row whose outcome depends on timing: --full runs it 3 times';
    const results = { ...fixtureResults(), rows: [row!] };
    expect(toMarkdown(resultsDocument(results))).toContain(said);
    expect(toText(resultsDocument(results)).replace(/\s+/g, ' ')).toContain(said);
  });

  it('a row whose verdict does not depend on timing says nothing of its runs', () => {
    const [row] = buildProductionRows([
      { ...run(0, 'rode-it-out', clean), scenario: { ...scenario, variant: 'hardened', id: 'x' } },
    ]);
    expect(row!.dependsOnTiming).toBe(false);
    expect(toMarkdown(resultsDocument({ ...fixtureResults(), rows: [row!] }))).not.toContain('depends on timing');
  });
});

describe('a hazard cell’s colour on the scorecard', () => {
  const zombie = (variant: 'naive' | 'hardened', harm: HazardObservation['harm']): HazardObservation => ({
    scenario: {
      id: `zombie/journal/${variant}`,
      hazard: 'zombie',
      runtime: 'journal',
      variant,
      deviations: FAKE_RUNTIMES.journal.hazardDeviations ?? [],
    },
    repetition: 0,
    status: 'ran',
    verdict: 'fenced-by-runtime',
    figures: { 'frozen call paid': `${(harm.repeatedByKind.model ?? 0) + 1}×` },
    runId: `rev-zombie-${variant}`,
    note: null,
    startedAt: 0,
    endedAt: 12_000,
    ledger: [],
    durable: null,
    harm,
  });

  it('is the worst outcome measured in the row: a fenced run that paid its call four times is a paid repeat, not green', () => {
    const rows = buildProductionRows([
      zombie('naive', { repeatedByKind: { model: 3 }, sideEffectDuplicated: false }),
      zombie('hardened', { repeatedByKind: {}, sideEffectDuplicated: false }),
    ]);
    const card = buildScorecard({ ...fixtureResults(), rows });
    const cells = card.lines.find((l) => l.id === 'zombie')!.cells.filter((c) => c !== null);
    expect(cells.map((c) => [c!.word, c!.severity])).toEqual([
      ['fenced-by-runtime', 'paid'],
      ['fenced-by-runtime', 'nothing'],
    ]);
    expect(cells[0]!.detail).toContain('Measured: repeated model+3');
  });
});

describe('the hazards a run left out', () => {
  const ran = (hazards: readonly HazardId[]) =>
    buildProductionRows(
      hazards.map((hazard): HazardObservation => ({
        scenario: {
          id: `${hazard}/checkpointer/hardened`,
          hazard,
          runtime: 'checkpointer',
          variant: 'hardened',
          deviations: [],
        },
        repetition: 0,
        status: 'ran',
        verdict: HAZARDS[hazard].expected.hardened,
        figures: {},
        runId: null,
        note: null,
        startedAt: 0,
        endedAt: 1,
        ledger: [],
        durable: null,
        harm: { repeatedByKind: {}, sideEffectDuplicated: false },
      })),
    );
  const noteOf = (hazards: readonly HazardId[]) =>
    toMarkdown(resultsDocument({ ...fixtureResults(), rows: ran(hazards) }));

  it('the default says it answers each lesson once, names the rest and the command that runs them', () => {
    const md = noteOf(DEFAULT_HAZARDS);
    expect(md).toContain(
      `One hazard per lesson, the one whose rows show it most sharply (${DEFAULT_HAZARDS.length} of ${HAZARD_IDS.length})`,
    );
    for (const id of HAZARD_IDS.filter((h) => !DEFAULT_HAZARDS.includes(h))) expect(md).toContain(id);
    expect(md).toContain('`pnpm compare --full` runs every hazard');
  });

  it('a run of every hazard leaves nothing out and says nothing; one of a few says how many', () => {
    expect(noteOf(HAZARD_IDS)).not.toContain('Not run:');
    expect(noteOf(['retry-permanent', 'retention'])).toContain(`2 of ${HAZARD_IDS.length} hazards ran. Not run: `);
  });
});
