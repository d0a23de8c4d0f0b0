import type { Durability, OperationKind, Variant } from '@vendor-review/pipeline';
import type { CrashPointName, StopMode } from '@vendor-review/instrument';
import { expectedVerdict, type HazardDeviation, type HazardId } from './hazards.ts';

/**
 * What every crash point must show, written once, next to the catalogue of crash points: the
 * conformance suite (`crashSpec`) holds every runtime to it, and the report prints it. The rule is
 * what a runtime that keeps every finished step must do; where a runtime or a configuration is
 * documented to do otherwise, the deviation is listed below with its reason, so that a row that
 * differs from the rule is either explained here or a failure.
 */

/** Extra executions of one kind of operation beyond the uncrashed baseline: at least `min`, at most `max`. */
export interface Count {
  min: number;
  max: number;
}

export interface CrashOutcome {
  /** Kinds of operation that run again and how often; a kind not listed must not repeat at all. */
  repeats: Partial<Record<OperationKind, Count>>;
  /** The outside world keeps a second copy of a side effect (a note or a mail accepted twice). */
  duplicateEffect: boolean;
  /**
   * A worker asked to stop (`term`): `itself` — it left inside the grace period (an exit, or
   * Node's default death by the signal); `killed` — it was still there when the grace ended.
   * Not checked when left out.
   */
  leaves?: 'itself' | 'killed';
}

/**
 * `restart`: the runtime keeps nothing durable and, by design, runs the job again from its request:
 * every operation worker A made runs again, and without idempotency keys every side effect doubles.
 * `lost`: nothing durable survived and the runtime refuses to guess: the run is reported lost
 * (only a person can restart it from its request).
 * `varies`: what survives depends on timing (background writes racing a kill): the run either
 * completes or is lost, and the distribution over repeats is what the report shows.
 * `not-reached`: the point lies inside a commit our code cannot reach in this runtime (its SDK or
 * its server does the write): the catalogue has no cell for it.
 */
export type Expected =
  | { kind: 'rule'; outcome: CrashOutcome }
  | { kind: 'restart' }
  | { kind: 'lost' }
  | { kind: 'varies' }
  | { kind: 'not-reached' };

const once: Count = { min: 1, max: 1 };
const none: CrashOutcome = { repeats: {}, duplicateEffect: false };
const same = (outcome: CrashOutcome) => ({ naive: outcome, hardened: outcome });

/** The rule, per crash point and variant. */
export const CRASH_RULES: Record<CrashPointName, Record<Variant, CrashOutcome>> = {
  boundary: same(none),
  // The fetch that was cut off runs again; its parallel siblings may have finished (kept) or not.
  'after-fetch': same({ repeats: { web: { min: 1, max: 5 } }, duplicateEffect: false }),
  'after-model': same({ repeats: { model: once }, duplicateEffect: false }),
  // The provider saw (and billed) the request that was in flight; the resumed worker sends it again.
  'mid-model': same({ repeats: { model: once }, duplicateEffect: false }),
  'after-progress': {
    naive: { repeats: { tracker: once }, duplicateEffect: true },
    // The second note carries the same key: the tracker recognises it and stores nothing new.
    hardened: { repeats: { tracker: once }, duplicateEffect: false },
  },
  'after-deliver': {
    naive: { repeats: { mail: once }, duplicateEffect: true },
    hardened: { repeats: { mail: once }, duplicateEffect: false },
  },
  'parallel-fetch': same({ repeats: { web: once }, duplicateEffect: false }),
  'awaiting-approval': same(none),
  // Nothing has run yet that the world saw: the resumer starts the run, and nothing repeats.
  'first-step': same(none),
  'start-call': same(none),
  'before-deliver': same(none),
  // The step's work is done: a runtime that keeps every finished step has what the commit was writing.
  'mid-commit': same(none),
};

/**
 * A worker asked to stop (SIGTERM, then SIGKILL when the grace period ends) with a step in flight.
 * Hardened, the runtime drains: the step in flight finishes inside the grace, becomes durable, and
 * the worker leaves by itself; its successor starts at the next step, so nothing repeats, not even
 * a side effect's request. Naive is whatever the runtime does with no code of ours: a worker with
 * no SIGTERM handling dies of the signal at once, which is a kill, so the kill's rule applies.
 */
export const TERM_RULES: Record<CrashPointName, Record<Variant, CrashOutcome>> = Object.fromEntries(
  (Object.keys(CRASH_RULES) as CrashPointName[]).map((point) => [
    point,
    { naive: CRASH_RULES[point].naive, hardened: { ...none, leaves: 'itself' } },
  ]),
) as Record<CrashPointName, Record<Variant, CrashOutcome>>;

/**
 * The step in flight outlasts the grace period (a model call slower than the grace): no drain can
 * finish it, the worker is killed when the grace ends, and the step runs again as after a kill,
 * paid twice. What a drain may still save is time: the crash rule's repeats, no more.
 */
export const LONG_STEP_RULES: Record<CrashPointName, Record<Variant, CrashOutcome>> = Object.fromEntries(
  (Object.keys(CRASH_RULES) as CrashPointName[]).map((point) => [
    point,
    { naive: CRASH_RULES[point].naive, hardened: { ...CRASH_RULES[point].hardened, leaves: 'killed' } },
  ]),
) as Record<CrashPointName, Record<Variant, CrashOutcome>>;

/**
 * A runtime's documented departure from the rule, listed in its own runtime module (RuntimeInfo
 * `crashDeviations`); the first that matches a cell applies.
 */
export interface CrashDeviation {
  durability?: Durability;
  variant?: Variant;
  /** The crash points it applies to; all when omitted. */
  points?: readonly CrashPointName[];
  /** How the worker was made to leave (the instrument's StopMode); both when omitted. */
  stop?: StopMode;
  /** Only the `term` cells whose step outlasts the grace (true), or only the others (false); both when omitted. */
  stepOutlastsGrace?: boolean;
  expected: Expected;
  why: string;
}

/**
 * What the approver's inbox holds once a run has ended, uncrashed or killed while it waited for
 * the decision: one request. The notification is made in a recorded unit (an activity, a step, a
 * `ctx.run`, a task, a node of its own) right before the wait, and a resume hands back the unit's
 * result instead of running it. A runtime whose unit of replay holds more than the call departs, in
 * its module's `approverDeviations`, with why. Apart from the repeat and duplicate rules above
 * (evidence.ts UNJUDGED_KINDS): it is where the unit of replay lies, not what a crash cost.
 */
export const APPROVER_INBOX = 1;

export interface ApproverDeviation {
  variant?: Variant;
  /** Only the runs killed (or stopped) while they waited (true), or only the uncrashed (false); both when omitted. */
  killedWhileWaiting?: boolean;
  inbox: number;
  why: string;
}

/** The crash point where a run is killed while it waits for the approval. */
export const WAITING_POINT: CrashPointName = 'awaiting-approval';

export function expectedApproverInbox(
  deviations: readonly ApproverDeviation[],
  cell: { variant: Variant; killedWhileWaiting: boolean },
): { inbox: number; why: string | null } {
  const d = deviations.find(
    (x) =>
      (x.variant === undefined || x.variant === cell.variant) &&
      (x.killedWhileWaiting === undefined || x.killedWhileWaiting === cell.killedWhileWaiting),
  );
  return d ? { inbox: d.inbox, why: d.why } : { inbox: APPROVER_INBOX, why: null };
}

/** The crash points before the approval gate, where a run has done its research and mailed nothing. */
export const BEFORE_THE_GATE: readonly CrashPointName[] = [
  'boundary',
  'after-fetch',
  'after-model',
  'mid-model',
  'after-progress',
  'parallel-fetch',
];

/** How often a cell or hazard row whose outcome depends on timing runs when its distribution is asked for: enough to show one, not an anecdote. */
export const VARYING_REPEATS = 3;

/**
 * Crash points whose rule admits a range because a sibling races the kill in every runtime: at
 * `after-fetch` the other page of FETCH may or may not have arrived (and become durable) when the
 * first one's arrival kills the worker, so a resume fetches one page again or two.
 */
export const RACING_POINTS: readonly CrashPointName[] = ['after-fetch'];

/** A hazard row as far as its timing goes: the hazard, the variant and its runtime's departures. */
export interface HazardRowKey {
  hazard: HazardId;
  variant: Variant;
  deviations: readonly HazardDeviation[];
}

/**
 * True where a row's outcome depends on timing, so one run of it is one sample: a crash cell with a
 * `varies` departure, a rule that admits a range of repeats, or at a racing point; a hazard row whose runtime lists other verdicts a race
 * decides (`alsoSeen`).
 */
export function dependsOnTiming(row: (CrashCell & { crashPoint: CrashPointName | null }) | HazardRowKey): boolean {
  if ('hazard' in row) return expectedVerdict(row.hazard, row.variant, row.deviations).alsoSeen.length > 0;
  if (row.crashPoint === null) return false;
  if (RACING_POINTS.includes(row.crashPoint)) return true;
  const { expected } = expectationFor(row.crashPoint, row);
  return (
    expected.kind === 'varies' ||
    (expected.kind === 'rule' && Object.values(expected.outcome.repeats).some((c) => c.min !== c.max))
  );
}

/** Runs of a row that show its distribution: VARYING_REPEATS where its outcome depends on timing, else one. */
export function distributionRepeats(row: Parameters<typeof dependsOnTiming>[0]): number {
  return dependsOnTiming(row) ? VARYING_REPEATS : 1;
}

export interface Expectation {
  expected: Expected;
  /** Why the cell departs from the rule; null when the rule applies. */
  why: string | null;
}

/** A crash cell as far as its expectation goes: its configuration and its runtime's departures. */
export interface CrashCell {
  variant: Variant;
  durability: Durability | null;
  deviations: readonly CrashDeviation[];
  /** `kill` when left out. */
  stop?: StopMode;
  stepOutlastsGrace?: boolean;
}

function ruleFor(point: CrashPointName, cell: CrashCell): CrashOutcome {
  if (cell.stop !== 'term') return CRASH_RULES[point][cell.variant];
  return (cell.stepOutlastsGrace ? LONG_STEP_RULES : TERM_RULES)[point][cell.variant];
}

export function expectationFor(point: CrashPointName, cell: CrashCell): Expectation {
  const d = cell.deviations.find(
    (x) =>
      (x.durability === undefined || x.durability === cell.durability) &&
      (x.variant === undefined || x.variant === cell.variant) &&
      (x.points === undefined || x.points.includes(point)) &&
      (x.stop === undefined || x.stop === (cell.stop ?? 'kill')) &&
      (x.stepOutlastsGrace === undefined || x.stepOutlastsGrace === (cell.stepOutlastsGrace ?? false)),
  );
  if (d) return { expected: d.expected, why: d.why };
  return { expected: { kind: 'rule', outcome: ruleFor(point, cell) }, why: null };
}
