import type { CrashPointName } from './crashpoints.ts';
import type { OperationKind } from './ports.ts';
import type { Durability, Variant } from './runtime.ts';

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
}

/**
 * `restart`: the runtime keeps nothing durable and, by design, runs the job again from its request:
 * every operation worker A made runs again, and without idempotency keys every side effect doubles.
 * `lost`: nothing durable survived and the runtime refuses to guess: the run is reported lost
 * (only a person can restart it from its request).
 * `varies`: what survives depends on timing (background writes racing a kill): the run either
 * completes or is lost, and the distribution over repeats is what the report shows.
 */
export type Expected =
  { kind: 'rule'; outcome: CrashOutcome } | { kind: 'restart' } | { kind: 'lost' } | { kind: 'varies' };

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
};

export interface Deviation {
  runtime?: string;
  durability?: Durability;
  variant?: Variant;
  /** The crash points it applies to; all when omitted. */
  points?: readonly CrashPointName[];
  expected: Exclude<Expected, { kind: 'rule' }>;
  why: string;
}

const BEFORE_THE_GATE: readonly CrashPointName[] = [
  'boundary',
  'after-fetch',
  'after-model',
  'mid-model',
  'after-progress',
  'parallel-fetch',
];

/** Documented departures from the rule; the first that matches a cell applies. */
export const CRASH_DEVIATIONS: readonly Deviation[] = [
  {
    runtime: 'plain',
    expected: { kind: 'restart' },
    why: 'The plain runner keeps nothing durable: the job is started again from its request, and everything before the crash runs again.',
  },
  {
    runtime: 'langgraph',
    durability: 'exit',
    points: BEFORE_THE_GATE,
    expected: { kind: 'lost' },
    why: 'Durability "exit" writes a checkpoint only when the graph stops; before the approval interrupt a killed worker leaves nothing to resume from, and the run is lost.',
  },
  {
    runtime: 'langgraph',
    durability: 'async',
    points: BEFORE_THE_GATE,
    expected: { kind: 'varies' },
    why: 'Durability "async" writes checkpoints in the background while the next steps run; a kill loses whatever was still queued, so how much repeats depends on the machine\'s load.',
  },
];

/** How often a cell whose outcome `varies` runs by default: enough to show a distribution, not an anecdote. */
export const VARYING_REPEATS = 3;

/** Default runs of a cell: VARYING_REPEATS where the outcome depends on timing, else once. */
export function defaultRepeats(cell: {
  crashPoint: CrashPointName | null;
  runtime: string;
  variant: Variant;
  durability: Durability | null;
}): number {
  if (cell.crashPoint === null) return 1;
  return expectationFor(cell.crashPoint, cell).expected.kind === 'varies' ? VARYING_REPEATS : 1;
}

export interface Expectation {
  expected: Expected;
  /** Why the cell departs from the rule; null when the rule applies. */
  why: string | null;
}

export function expectationFor(
  point: CrashPointName,
  cell: { runtime: string; variant: Variant; durability: Durability | null },
): Expectation {
  const d = CRASH_DEVIATIONS.find(
    (x) =>
      (x.runtime === undefined || x.runtime === cell.runtime) &&
      (x.durability === undefined || x.durability === cell.durability) &&
      (x.variant === undefined || x.variant === cell.variant) &&
      (x.points === undefined || x.points.includes(point)),
  );
  if (d) return { expected: d.expected, why: d.why };
  return { expected: { kind: 'rule', outcome: CRASH_RULES[point][cell.variant] }, why: null };
}
