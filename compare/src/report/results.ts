import type { Outcome, ResultRow } from './crash-schema.ts';
import type { HazardOutcome, ProductionRow } from './production-schema.ts';
import type { Results, Row } from './results-schema.ts';
import type { GranularityRow } from './granularity-schema.ts';
import type { WindowRow } from './window-schema.ts';
import {
  atTheKill,
  atTheKillText,
  dependsOnTiming,
  expectedApproverInbox,
  hazardSeverity,
  WAITING_POINT,
  HAZARDS,
  SEVERITIES,
  type HazardSpec,
  checkCrashCell,
  checkHazard,
  computeEvidence,
  type CellObservation,
  type CellStatus,
  type Evidence,
  type HazardObservation,
} from '@vendor-review/conformance';
import { kindsText } from '../table.ts';

// The shape of results.json is defined once, as zod schemas (results-schema.ts and each suite's rows'); these are its types.
export type { Outcome, ResultRow } from './crash-schema.ts';
export type { HazardOutcome, ProductionRow } from './production-schema.ts';
export type { Results, ResultsMeta, Row } from './results-schema.ts';

export const crashRows = (r: Results): ResultRow[] => r.rows.filter((x): x is ResultRow => x.suite === 'crash');
export const granularityRows = (r: Results): GranularityRow[] =>
  r.rows.filter((x): x is GranularityRow => x.suite === 'granularity');
export const windowRows = (r: Results): WindowRow[] => r.rows.filter((x): x is WindowRow => x.suite === 'window');
export const productionRows = (r: Results): ProductionRow[] =>
  r.rows.filter((x): x is ProductionRow => x.suite === 'production');

/** Where a hazard run sits on the scorecard's scale; -1 when it was not judged (skipped, an error). */
export function hazardRank(
  o: Pick<HazardOutcome, 'status' | 'verdict' | 'repeatedByKind' | 'sideEffectDuplicated'>,
): number {
  if (o.status !== 'ran' || !o.verdict) return -1;
  const s = hazardSeverity(o.verdict, o);
  return s === null ? -1 : SEVERITIES.indexOf(s);
}

/** "repeated-the-takeover · model+4 tracker+3 · effect duplicated": what makes two runs of a hazard row the same. */
function hazardOutcomeOf(o: HazardObservation): string {
  const kinds = kindsText(o.harm);
  return [
    o.status === 'ran' ? (o.verdict ?? '?') : o.status,
    kinds === 'none' ? 'repeated nothing' : kinds,
    ...(o.harm.sideEffectDuplicated ? ['effect duplicated'] : []),
  ].join(' · ');
}

/**
 * One row per hazard scenario, over all its runs: the verdict, figures and note of its worst run
 * (so the row never reads better than it went), the distribution of every run's outcome, and each
 * run's departures from what its variant must show.
 */
export function buildProductionRows(
  observations: HazardObservation[],
  labelOf: (runtime: string) => string = (r) => r,
): ProductionRow[] {
  const byScenario = new Map<string, HazardObservation[]>();
  for (const o of observations) byScenario.set(o.scenario.id, [...(byScenario.get(o.scenario.id) ?? []), o]);
  return [...byScenario.values()].map((unsorted) => {
    const reps = [...unsorted].sort((a, b) => a.repetition - b.repetition);
    const outcomes = new Map<string, HazardOutcome>();
    for (const o of reps) {
      const key = hazardOutcomeOf(o);
      const seen = outcomes.get(key);
      if (seen) seen.count++;
      else
        outcomes.set(key, {
          outcome: key,
          count: 1,
          status: o.status,
          verdict: o.verdict,
          repeatedByKind: { ...o.harm.repeatedByKind },
          sideEffectDuplicated: o.harm.sideEffectDuplicated,
        });
    }
    const rank = (o: HazardObservation) =>
      o.status === 'error' ? SEVERITIES.length : hazardRank({ status: o.status, verdict: o.verdict, ...o.harm });
    const shown = reps.reduce((w, o) => (rank(o) > rank(w) ? o : w), reps[0]!);
    const s = shown.scenario;
    const spec: HazardSpec = HAZARDS[s.hazard];
    const verdicts: Record<string, string> = spec.verdicts;
    const checks = reps.map(checkHazard);
    const { expected, why } = checks[0]!;
    const walls = reps.map((o) => o.endedAt - o.startedAt);
    return {
      suite: 'production',
      scenario: s.hazard,
      section: spec.section,
      title: spec.title,
      runtime: s.runtime,
      runtimeLabel: labelOf(s.runtime),
      variant: s.variant,
      verdict: shown.verdict,
      verdictText: shown.verdict ? (verdicts[shown.verdict] ?? null) : null,
      expected,
      deviation: why,
      violations: checks.flatMap((c, i) => c.violations.map((v) => (reps.length > 1 ? `#${i + 1}: ${v}` : v))),
      figures: shown.figures,
      status: shown.status,
      note: shown.note,
      runId: shown.runId,
      wallMs: median(walls) ?? 0,
      repetitions: reps.length,
      dependsOnTiming: dependsOnTiming(s),
      variesAcrossRepeats: outcomes.size > 1,
      outcomes: [...outcomes.values()].sort((a, b) => b.count - a.count),
    };
  });
}

const STATUS_RANK: Record<CellStatus, number> = { completed: 0, stuck: 2, failed: 1, lost: 3, error: 4 };

export function median(xs: number[], o: { exact?: boolean } = {}): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length % 2) return s[mid]!;
  const between = (s[mid - 1]! + s[mid]!) / 2;
  // Whole milliseconds, unless the figure is finer than that (a timer's lateness, a share).
  return o.exact ? between : Math.round(between);
}

/**
 * What a reader would call "the same outcome": per repeated operation its kind, step and a
 * run-independent subject (a page path, a requirement, "review mail") with how often it repeated,
 * plus the status and the duplicated-effect and duplicated-state flags. The opKeys themselves stay in
 * the row as evidence; they may name the run (a mail's subject line does) and differ every repeat.
 */
export function outcomeOf(e: Evidence, status: CellStatus, held: string | null = null): string {
  const repeated = e.repeated.map((r) => `${r.kind} ${r.subject} +${r.count - r.baselineCount}`).sort();
  const flags = [e.sideEffectDuplicated && 'effect duplicated', e.stateDuplicated && 'state duplicated'].filter(
    Boolean,
  );
  return [
    ...(held ? [`at the kill: ${held}`] : []),
    status,
    repeated.length ? `repeated ${repeated.join(', ')}` : 'repeated nothing',
    ...flags,
  ].join(' · ');
}

/**
 * Turns the observations of all cells (all repetitions) into rows, each judged against its
 * baseline's first repetition. Order: as the observations' scenarios first appear.
 */
export function buildRows(
  observations: CellObservation[],
  labelOf: (runtime: string) => string = (r) => r,
): ResultRow[] {
  const byCell = new Map<string, CellObservation[]>();
  for (const o of observations) {
    const list = byCell.get(o.scenario.id) ?? [];
    list.push(o);
    byCell.set(o.scenario.id, list);
  }
  for (const list of byCell.values()) list.sort((a, b) => a.repetition - b.repetition);
  const baselineOf = (o: CellObservation) =>
    byCell.get(o.scenario.baselineId)?.find((b) => b.status === 'completed') ?? null;

  const rows: ResultRow[] = [];
  for (const [cellId, reps] of byCell) {
    const first = reps[0]!;
    const s = first.scenario;
    const judged = reps.map((o) => ({
      o,
      e: computeEvidence(o, s.crashPoint === null ? (o === first ? o : first) : baselineOf(o)),
    }));
    const e = judged[0]!.e;
    const recoveries = judged.map((j) => j.e.recoveryMs).filter((x): x is number => x !== null);
    const walls = reps.map((o) => o.endedAt - o.startedAt);
    const worst = reps.reduce((w, o) => (STATUS_RANK[o.status] > STATUS_RANK[w] ? o.status : w), first.status);
    const byOutcome = new Map<string, Outcome>();
    for (const j of judged) {
      const kill = atTheKill(j.o);
      const held = kill ? atTheKillText(kill) : null;
      const key = outcomeOf(j.e, j.o.status, held);
      const seen = byOutcome.get(key);
      if (seen) seen.count++;
      else {
        const repeatedByKind: Outcome['repeatedByKind'] = {};
        for (const r of j.e.repeated)
          repeatedByKind[r.kind] = (repeatedByKind[r.kind] ?? 0) + r.count - r.baselineCount;
        byOutcome.set(key, {
          outcome: key,
          count: 1,
          status: j.o.status,
          lastDurableShort: j.e.lastDurableShort,
          repeatedByKind,
          extraModelCalls: j.e.extraModelCalls,
          sideEffectDuplicated: j.e.sideEffectDuplicated,
          ...(held ? { atTheKill: held } : {}),
        });
      }
    }
    const outcomes = [...byOutcome.values()].sort((a, b) => b.count - a.count);
    const verdicts = s.crashPoint === null ? [] : reps.map((o) => checkCrashCell(o, baselineOf(o)));
    const violations = verdicts.flatMap((v, i) =>
      v.violations.map((text) => (reps.length > 1 ? `#${i + 1}: ${text}` : text)),
    );
    const noBaseline = s.crashPoint !== null && !baselineOf(first);
    const notes = [...new Set(reps.map((o) => o.note).filter(Boolean))] as string[];
    if (noBaseline) notes.push('its baseline did not complete, so repeats are judged as "seen more than once"');
    rows.push({
      suite: 'crash',
      runtime: s.runtime,
      variant: s.crashPoint === null ? 'baseline' : s.variant,
      durability: first.durability ?? s.durability,
      crashPoint: s.crashPoint,
      ...(s.stop === 'term'
        ? {
            stop: s.stop,
            stopping: first.stopping
              ? {
                  graceMs: first.stopping.graceMs,
                  left: first.stopping.left,
                  exitCode: first.stopping.exitCode,
                  leftAfterMs: first.stopping.leftAfterMs,
                }
              : null,
          }
        : {}),
      lastDurable: e.lastDurable,
      firstAfterResume: e.firstAfterResume,
      repeatedOperations: e.repeatedOperations,
      extraModelCalls: e.extraModelCalls,
      extraCostUsd: e.extraCostUsd,
      stateDuplicated: e.stateDuplicated,
      sideEffectDuplicated: e.sideEffectDuplicated,
      recoveryMs: recoveries.length ? median(recoveries) : null,
      finalMatchesBaseline: e.finalMatchesBaseline,
      status: worst,
      cellId,
      runtimeLabel: labelOf(s.runtime),
      baselineOf: s.crashPoint === null ? s.variant : null,
      lastDurableShort: e.lastDurableShort,
      firstAfterResumeShort: e.firstAfterResumeShort,
      repeated: e.repeated,
      repeatSeqs: e.repeatSeqs,
      extraTokens: e.extraTokens,
      stateDuplicatedWhy: e.stateDuplicatedWhy,
      sideEffectDuplicatedWhy: e.sideEffectDuplicatedWhy,
      note: notes.length ? notes.join('; ') : null,
      runId: first.runId,
      runtimeIds: first.runtimeIds,
      link: first.link,
      repetitions: reps.length,
      recovery: {
        n: recoveries.length,
        medianMs: median(recoveries),
        minMs: recoveries.length ? Math.min(...recoveries) : null,
        maxMs: recoveries.length ? Math.max(...recoveries) : null,
      },
      cellWallMs: { median: median(walls) ?? 0, min: Math.min(...walls), max: Math.max(...walls) },
      variesAcrossRepeats: outcomes.length > 1,
      dependsOnTiming: dependsOnTiming(s),
      outcomes,
      violations,
      deviation: verdicts[0]?.expectation.why ?? null,
      approver: approverOf(
        s,
        judged.map((j) => j.e.approver),
      ),
    });
  }
  return rows;
}

/** The approver's inbox of a cell: its fullest run's, beside what the cell must show. */
function approverOf(s: CellObservation['scenario'], counts: Evidence['approver'][]): ResultRow['approver'] {
  const fullest = counts.reduce((a, b) => (b.inbox > a.inbox ? b : a), counts[0] ?? { asked: 0, inbox: 0 });
  const { inbox, why } = expectedApproverInbox(s.approverDeviations ?? [], {
    variant: s.variant,
    killedWhileWaiting: s.crashPoint === WAITING_POINT,
  });
  return { ...fullest, expected: inbox, why };
}

/** Exit code of the whole comparison: 1 when any cell or hazard row could not run (error), else 0. */
export function exitCodeFor(rows: Row[]): 0 | 1 {
  return rows.some((r) => r.status === 'error') ? 1 : 0;
}
