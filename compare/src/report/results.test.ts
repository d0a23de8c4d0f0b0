import {
  baselineObservation,
  checkpointerRecord,
  crashedObservation,
  FAKE_RUNTIMES,
  type FakeRuntime,
} from '@vendor-review/conformance/fixtures';
import type { CellObservation } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { fixtureResults } from '../../test/fixture-results.ts';
import { distributionText, observedLine } from '../table.ts';
import { toHtml } from './render-html.ts';
import { toText } from './render-text.ts';
import { toMarkdown } from './render-markdown.ts';
import { resultsDocument } from './results-document.ts';
import { buildRows } from './results.ts';

const label = (r: string) => FAKE_RUNTIMES[r as FakeRuntime].label;

/** A repetition of a crashed cell as its own run: a run id, and a mail whose opKey names it. */
function repetition(n: number, build: () => CellObservation): CellObservation {
  const obs = build();
  const runId = `rev-acme-run${n}`;
  return {
    ...obs,
    repetition: n,
    runId,
    ledger: obs.ledger.map((e) => ({
      ...e,
      runId,
      ...(e.kind === 'mail' ? { opKey: `mail:${runId}`, subject: 'review mail' } : {}),
    })),
  };
}

describe('the same outcome across repeats', () => {
  it('two after-deliver repeats from different runs that each repeated one mail do not vary', () => {
    const reps = [1, 2, 3].map((n) =>
      repetition(n, () => crashedObservation({ crashPoint: 'after-deliver', crashAfter: 12, resumeFrom: 11 })),
    );
    const rows = buildRows([baselineObservation(), ...reps], label);
    const row = rows.find((r) => r.crashPoint === 'after-deliver')!;
    expect(row.repetitions).toBe(3);
    expect(row.variesAcrossRepeats).toBe(false);
    expect(row.outcomes).toMatchObject([
      {
        outcome: 'completed · repeated mail review mail +1 · effect duplicated',
        count: 3,
        repeatedByKind: { mail: 1 },
        sideEffectDuplicated: true,
      },
    ]);
    // The exact keys stay in the row as evidence.
    expect(row.repeatedOperations).toEqual(['mail:rev-acme-run1']);
  });

  it('repeats that lost different amounts (as async durability does) vary, with their distribution', () => {
    const lostLittle = repetition(1, () =>
      crashedObservation({ crashPoint: 'boundary', crashAfter: 4, resumeFrom: 4 }),
    );
    const lostMore = [2, 3].map((n) =>
      repetition(n, () => crashedObservation({ crashPoint: 'boundary', crashAfter: 4, resumeFrom: 1 })),
    );
    const rows = buildRows([baselineObservation(), lostLittle, ...lostMore], label);
    const row = rows.find((r) => r.crashPoint === 'boundary')!;
    expect(row.variesAcrossRepeats).toBe(true);
    expect(row.outcomes.map((o) => o.count)).toEqual([2, 1]);
    expect(row.outcomes[0]!.outcome).toBe(
      'completed · repeated web GET /vendors/acme/legal +1, web GET /vendors/acme/security +1, web GET /vendors/acme/trust +1',
    );
    expect(row.outcomes[1]!.outcome).toBe('completed · repeated nothing');
    // What the table, results.md and the report print for it: where each resume started, what repeated, how often.
    expect(distributionText(row)).toBe('cp 6 VALIDATE → web+3 2/3 · cp 6 VALIDATE → none 1/3');
    // The "seen" line names what repeated in some runs, not only what the first run did.
    expect(observedLine([row])).toContain('page fetches repeated in CP naive/async (2/3)');
    expect(observedLine([row])).toContain('nothing repeated in CP naive/async (1/3)');
    // …in the table, results.md and the report alike.
    const results = { ...fixtureResults(), rows };
    expect(toText(resultsDocument(results))).toContain(
      '↳ over 3 runs: cp 6 VALIDATE → web+3 2/3 · cp 6 VALIDATE → none 1/3',
    );
    expect(toMarkdown(resultsDocument(results))).toContain(
      '- CP naive/async: varied over 3 runs: cp 6 VALIDATE → web+3 2/3',
    );
    expect(toHtml(resultsDocument(results))).toContain('↳ over 3 runs: cp 6 VALIDATE → web+3 2/3');
  });

  it('a cell whose outcome depends on timing that ran once says so, and how to see its distribution', () => {
    const once = crashedObservation({ crashPoint: 'boundary', crashAfter: 4, resumeFrom: 1 });
    const rows = buildRows([baselineObservation(), once], label);
    const row = rows.find((r) => r.crashPoint === 'boundary')!;
    expect([row.dependsOnTiming, row.repetitions, row.variesAcrossRepeats]).toEqual([true, 1, false]);
    const results = { ...fixtureResults(), rows };
    const said = 'one run of a cell whose outcome depends on timing: --full runs it 3 times';
    expect(toText(resultsDocument(results))).toContain(`↳ ${said}`);
    expect(toMarkdown(resultsDocument(results))).toContain(`- CP naive/async: ${said}`);
    // A cell whose outcome does not depend on timing says nothing of its runs.
    const baseline = rows.find((r) => r.crashPoint === null)!;
    expect(baseline.dependsOnTiming).toBe(false);
  });

  it("mid-commit: runs are told apart by what the store held at the kill, EXTRACT's pending write or not", () => {
    const withWrite = (n: number, kept: boolean): CellObservation => {
      const obs = repetition(n, () =>
        crashedObservation({ crashPoint: 'mid-commit', crashAfter: 6, resumeFrom: kept ? 6 : 5 }),
      );
      const marks = checkpointerRecord(6).marks;
      const write = {
        ...marks.at(-1)!,
        id: 'cp5/t/extract',
        kind: 'pending-write' as const,
        step: 'EXTRACT',
        parentId: 'cp5',
      };
      return {
        ...obs,
        durableAtCrash: { runtime: 'checkpointer', kind: 'checkpoints', marks: kept ? [...marks, write] : marks },
      };
    };
    const rows = buildRows(
      [baselineObservation(), withWrite(1, true), withWrite(2, false), withWrite(3, false)],
      label,
    );
    const row = rows.find((r) => r.crashPoint === 'mid-commit')!;
    expect(row.outcomes.map((o) => [o.atTheKill, o.count])).toEqual([
      ["EXTRACT's pending write not committed · its checkpoint not (killed inside the commit)", 2],
      ["EXTRACT's pending write committed · its checkpoint not (killed inside the commit)", 1],
    ]);
    expect(distributionText(row)).toContain(
      "[EXTRACT's pending write committed · its checkpoint not (killed inside the commit)]",
    );
    // One run says it on its row, where no distribution is printed.
    const [once] = buildRows([baselineObservation(), withWrite(1, true)], label).filter((r) => r.crashPoint);
    const results = { ...fixtureResults(), rows: [once!] };
    expect(toText(resultsDocument(results))).toContain("at the kill: EXTRACT's pending write committed");
  });
});
