import type { EnvironmentReport } from '../environment.ts';
import {
  HAZARDS,
  type CrashPointName,
  type Durability,
  type HazardId,
  type HazardSection,
  type HazardSpec,
  type Variant,
} from '@vendor-review/domain';
import {
  checkCrashCell,
  checkHazard,
  type Figure,
  type HazardObservation,
  computeEvidence,
  type CellObservation,
  type CellStatus,
  type Evidence,
  type RepeatedOperation,
} from '@vendor-review/domain/conformance';

/**
 * results.json: the contract of issue 5 (`rows`, `meta`), plus a few fields the table and the report
 * need. Rows are one per cell; with --repeat the cell's evidence comes from its first repetition and
 * the timings are summarised over all of them.
 */
export interface ResultRow {
  suite: 'crash';
  runtime: string;
  variant: Variant | 'baseline';
  durability: Durability | null;
  crashPoint: CrashPointName | null;
  lastDurable: string;
  firstAfterResume: string;
  repeatedOperations: string[];
  extraModelCalls: number;
  /** Null when the model's price is unknown. */
  extraCostUsd: number | null;
  stateDuplicated: boolean;
  sideEffectDuplicated: boolean;
  recoveryMs: number | null;
  finalMatchesBaseline: boolean;
  status: CellStatus;
  // ---- beyond the contract ----
  cellId: string;
  /** The runtime's short label ("LG", "TM", "plain"). */
  runtimeLabel: string;
  /** For a baseline row: the variant it is the baseline of. */
  baselineOf: Variant | null;
  lastDurableShort: string;
  firstAfterResumeShort: string;
  repeated: RepeatedOperation[];
  /** Ledger seqs of the re-executions, for timelines. */
  repeatSeqs: number[];
  extraTokens: number;
  stateDuplicatedWhy: string[];
  sideEffectDuplicatedWhy: string[];
  note: string | null;
  runId: string;
  runtimeIds: CellObservation['runtimeIds'];
  link: string | null;
  repetitions: number;
  recovery: { n: number; medianMs: number | null; minMs: number | null; maxMs: number | null };
  cellWallMs: { median: number; min: number; max: number };
  /** True when repetitions disagreed on what repeated or on the status. */
  variesAcrossRepeats: boolean;
  /** Each distinct outcome over the repetitions, most frequent first, with how often it happened. */
  outcomes: Outcome[];
  /** Crashed cells: where what this cell showed departs from what its crash point must show (none: it conforms). */
  violations: string[];
  /** Crashed cells: why this runtime and configuration is documented to depart from the rule, or null. */
  deviation: string | null;
}

export interface ResultsMeta {
  versions: {
    langgraph: string | null;
    langgraphCheckpointPostgres: string | null;
    temporalSdk: string | null;
    temporalServer: string | null;
    node: string;
  };
  infrastructure: {
    world: string;
    model: string;
    postgres: string;
    temporal: string;
    temporalUi: string | null;
    built: string[];
  };
  /** Outside settings in force (secrets masked), and those deliberately kept from the workers. */
  environment: EnvironmentReport;
  /** The runtimes compared, with the labels the table uses. */
  runtimes: { name: string; label: string; title: string }[];
  wallTimeMs: number;
  startedAt: string;
  machine: { cpus: number; platform: string };
  options: Record<string, unknown>;
  cells: number;
  notRun: number;
}

/** One hazard of the production suite, for one runtime and variant. */
export interface ProductionRow {
  suite: 'production';
  /** The hazard's id ("retry-permanent"); its section groups it with its kind ("retries"). */
  scenario: HazardId;
  section: HazardSection;
  /** What was done, in a few words. */
  title: string;
  runtime: string;
  runtimeLabel: string;
  variant: Variant;
  /** How it ended, as a code and in words; null when the row could not run. */
  verdict: string | null;
  verdictText: string | null;
  /** The verdict this variant must reach, and why this runtime is documented to differ, if it is. */
  expected: string;
  deviation: string | null;
  violations: string[];
  figures: Record<string, Figure>;
  status: HazardObservation['status'];
  note: string | null;
  runId: string | null;
  wallMs: number;
}

export type Row = ResultRow | ProductionRow;

export interface Results {
  rows: Row[];
  meta: ResultsMeta;
}

export const crashRows = (r: Results): ResultRow[] => r.rows.filter((x): x is ResultRow => x.suite === 'crash');
export const productionRows = (r: Results): ProductionRow[] =>
  r.rows.filter((x): x is ProductionRow => x.suite === 'production');

export function buildProductionRows(
  observations: HazardObservation[],
  labelOf: (runtime: string) => string = (r) => r,
): ProductionRow[] {
  return observations.map((o) => {
    const spec: HazardSpec = HAZARDS[o.scenario.hazard];
    const verdicts: Record<string, string> = spec.verdicts;
    const { expected, why, violations } = checkHazard(o);
    return {
      suite: 'production',
      scenario: o.scenario.hazard,
      section: spec.section,
      title: spec.title,
      runtime: o.scenario.runtime,
      runtimeLabel: labelOf(o.scenario.runtime),
      variant: o.scenario.variant,
      verdict: o.verdict,
      verdictText: o.verdict ? (verdicts[o.verdict] ?? null) : null,
      expected,
      deviation: why,
      violations,
      figures: o.figures,
      status: o.status,
      note: o.note,
      runId: o.runId,
      wallMs: o.endedAt - o.startedAt,
    };
  });
}

/** One distinct outcome of a cell over its repetitions, with the facts of the first run that had it. */
export interface Outcome {
  /** What makes two runs "the same outcome" (see outcomeOf). */
  outcome: string;
  count: number;
  status: CellStatus;
  /** The last durable mark before the crash, in the table's words ("cp 5 FETCH"). */
  lastDurableShort: string;
  /** Extra executions per kind of operation beyond the baseline. */
  repeatedByKind: Partial<Record<RepeatedOperation['kind'], number>>;
  extraModelCalls: number;
  sideEffectDuplicated: boolean;
}

const STATUS_RANK: Record<CellStatus, number> = { completed: 0, stuck: 2, failed: 1, lost: 3, error: 4 };

export function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
}

/**
 * What a reader would call "the same outcome": per repeated operation its kind, step and a
 * run-independent subject (a page path, a requirement, "review mail") with how often it repeated,
 * plus the status and the duplicated-effect and duplicated-state flags. The opKeys themselves stay in
 * the row as evidence; they may name the run (a mail's subject line does) and differ every repeat.
 */
export function outcomeOf(e: Evidence, status: CellStatus): string {
  const repeated = e.repeated.map((r) => `${r.kind} ${r.subject} +${r.count - r.baselineCount}`).sort();
  const flags = [e.sideEffectDuplicated && 'effect duplicated', e.stateDuplicated && 'state duplicated'].filter(
    Boolean,
  );
  return [status, repeated.length ? `repeated ${repeated.join(', ')}` : 'repeated nothing', ...flags].join(' · ');
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
      const key = outcomeOf(j.e, j.o.status);
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
      outcomes,
      violations,
      deviation: verdicts[0]?.expectation.why ?? null,
    });
  }
  return rows;
}

/** Exit code of the whole comparison: 1 when any cell or hazard row could not run (error), else 0. */
export function exitCodeFor(rows: Row[]): 0 | 1 {
  return rows.some((r) => r.status === 'error') ? 1 : 0;
}
