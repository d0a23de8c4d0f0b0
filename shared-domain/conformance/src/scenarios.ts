import {
  DEFAULT_GRANULARITY,
  granularityOf,
  type Granularity,
  type Durability,
  type Variant,
} from '@vendor-review/pipeline';
import { MATRIX_CRASH_POINTS, STOP_GRACE_MS, type CrashPointName, type StopMode } from '@vendor-review/instrument';
import { expectationFor, type ApproverDeviation, type CrashDeviation } from './catalogue/crash-rules.ts';
import { type RuntimeInfo } from './adapter.ts';
import type { FaultRuleInput } from '@vendor-review/world';

/**
 * The scenario catalogue as data: every crash point in every configuration each runtime offers,
 * plus one uncrashed baseline per runtime and variant. Adding a crash point or a runtime adds rows
 * here without a second code path: the cell runner and the evidence never branch on the name.
 */
export interface Scenario {
  /** Stable and unique, e.g. "langgraph/naive/async/after-model" or "temporal/hardened/-/baseline". */
  id: string;
  runtime: string;
  variant: Variant;
  /** The durability asked for (LangGraph), or null; the row reports the one the run really used. */
  durability: Durability | null;
  /** null: the uncrashed baseline the crashed cells of this runtime and variant are judged against. */
  crashPoint: CrashPointName | null;
  baselineId: string;
  /** World faults for this run only (none in the crash catalogue); the cell scopes them to its run id. */
  faults: readonly Omit<FaultRuleInput, 'runId'>[];
  /** Where the run's durable boundaries are; `fine` when left out (the whole crash catalogue). */
  granularity?: Granularity;
  /** Die at the n-th time the crash point is reached (`name@n`); the first when left out. */
  crashOccurrence?: number;
  /**
   * Die this many milliseconds after the crash point, while the step goes on and the runtime keeps
   * its result (`name+ms`, the commit window); at once when left out.
   */
  killDelayMs?: number;
  /** Record the approval before worker A starts, so the run never waits for a person (timings). */
  approveAtStart?: boolean;
  /**
   * Give the approval only once worker A is gone, so a kill timed after the run reached its wait
   * lands while it waits instead of after the run has ended (the first checkpoint's late δs).
   */
  approveAfterCrash?: boolean;
  /** Where its runtime departs from the crash rule (its runtime module's `crashDeviations`). */
  deviations: readonly CrashDeviation[];
  /** Where its runtime's approver inbox departs from one request (its module's `approverDeviations`); none when left out. */
  approverDeviations?: readonly ApproverDeviation[];
  /**
   * How worker A leaves at the crash point: `kill` (SIGKILL; when left out) or `term` (SIGTERM
   * with the step in flight, SIGKILL once `graceMs` has passed).
   */
  stop?: StopMode;
  /** `term`: how long worker A has between SIGTERM and SIGKILL. */
  graceMs?: number;
  /**
   * `term`: the world holds the step in flight longer than the grace period (its first model call
   * answers after LONG_STEP_MS), so no drain can finish it in time.
   */
  stepOutlastsGrace?: boolean;
}

/** A step that outlasts the grace period: how long the world holds the model call SIGTERM lands in. */
export const LONG_STEP_MS = STOP_GRACE_MS * 2;

/** The id's tail for how worker A leaves; none for a kill, so every kill cell keeps its id. */
function stopSuffix(stop: StopMode | undefined, outlastsGrace: boolean | undefined): string {
  if (stop !== 'term') return '';
  return outlastsGrace ? '/term-long-step' : '/term';
}

export function scenarioId(
  runtime: string,
  variant: Variant,
  durability: Durability | null,
  crashPoint: CrashPointName | null,
  how: { stop?: StopMode; stepOutlastsGrace?: boolean } = {},
): string {
  return `${runtime}/${variant}/${durability ?? '-'}/${crashPoint ?? 'baseline'}${stopSuffix(how.stop, how.stepOutlastsGrace)}`;
}

/**
 * The same cell with worker A asked to stop (SIGTERM, then SIGKILL after the grace period)
 * instead of killed; `stepOutlastsGrace`: with a model call in flight that the world answers only
 * after the grace has ended.
 */
export function asTerm(s: Scenario, o: { stepOutlastsGrace?: boolean; graceMs?: number } = {}): Scenario {
  if (s.crashPoint === null) throw new Error(`${s.id} is a baseline: nothing to stop`);
  const long = o.stepOutlastsGrace === true;
  return {
    ...s,
    id: scenarioId(s.runtime, s.variant, s.durability, s.crashPoint, { stop: 'term', stepOutlastsGrace: long }),
    stop: 'term',
    graceMs: o.graceMs ?? STOP_GRACE_MS,
    ...(long
      ? {
          stepOutlastsGrace: true,
          // Only worker A's first model call of EXTRACT: worker B's retake answers at the usual speed.
          faults: [...s.faults, { route: 'model', kind: 'slow', step: 'EXTRACT', times: 1, delayMs: LONG_STEP_MS }],
        }
      : {}),
  };
}

/** Where a step outlasting the grace is measured: the paid call in flight. */
export const LONG_STEP_POINT: CrashPointName = 'mid-model';

/** The configuration a variant's baseline runs in: the first one the runtime lists for it. */
function baselineDurability(runtime: RuntimeInfo, variant: Variant): Durability | null {
  return (
    runtime.configurations.find((c) => c.variant === variant && granularityOf(c) === DEFAULT_GRANULARITY)?.durability ??
    null
  );
}

export function baselineIdFor(runtime: RuntimeInfo, variant: Variant): string {
  return scenarioId(runtime.name, variant, baselineDurability(runtime, variant), null);
}

function variantsOf(runtime: RuntimeInfo): Variant[] {
  return [...new Set(runtime.configurations.map((c) => c.variant))];
}

/**
 * One cell of a runtime in one configuration, judged against the uncrashed run of the same
 * configuration (a lab run, a bench sweep); the catalogue below points crashed cells at the
 * variant's baseline instead.
 */
export function scenarioFor(
  runtime: RuntimeInfo,
  config: { variant: Variant; durability: Durability | null; granularity?: Granularity },
  crashPoint: CrashPointName | null,
): Scenario {
  const { variant, durability } = config;
  return {
    id: scenarioId(runtime.name, variant, durability, crashPoint),
    runtime: runtime.name,
    variant,
    durability,
    crashPoint,
    baselineId: scenarioId(runtime.name, variant, durability, null),
    faults: [],
    ...(config.granularity ? { granularity: config.granularity } : {}),
    deviations: runtime.crashDeviations ?? [],
    ...(runtime.approverDeviations ? { approverDeviations: runtime.approverDeviations } : {}),
  };
}

/**
 * Every runtime's baselines first, then each crash point in each runtime's configurations (a
 * kill). With `term` among `stops`: each crash point once more with worker A asked to stop, in
 * each variant's baseline configuration only (the hardened drain, and what a tutorial's worker does
 * by default), plus the row whose step outlasts the grace.
 */
export function crashCatalogue(
  runtimes: readonly RuntimeInfo[],
  opts: { stops?: readonly StopMode[] } = {},
): Scenario[] {
  const stops = opts.stops ?? ['kill'];
  const out: Scenario[] = [];
  for (const rt of runtimes) {
    for (const variant of variantsOf(rt)) {
      const baselineId = baselineIdFor(rt, variant);
      const durability = baselineDurability(rt, variant);
      out.push({ ...scenarioFor(rt, { variant, durability }, null), id: baselineId, baselineId });
    }
  }
  if (stops.includes('kill')) {
    for (const crashPoint of MATRIX_CRASH_POINTS) {
      for (const rt of runtimes) {
        // The crash points are about one graph; the other granularities have a suite of their own.
        for (const { variant, durability } of rt.configurations.filter(
          (c) => granularityOf(c) === DEFAULT_GRANULARITY,
        )) {
          out.push({ ...scenarioFor(rt, { variant, durability }, crashPoint), baselineId: baselineIdFor(rt, variant) });
        }
      }
    }
  }
  if (stops.includes('term')) {
    for (const crashPoint of MATRIX_CRASH_POINTS) {
      for (const rt of runtimes) {
        for (const variant of variantsOf(rt)) {
          const cell = {
            ...scenarioFor(rt, { variant, durability: baselineDurability(rt, variant) }, crashPoint),
            baselineId: baselineIdFor(rt, variant),
          };
          out.push(asTerm(cell));
          if (crashPoint === LONG_STEP_POINT) out.push(asTerm(cell, { stepOutlastsGrace: true }));
        }
      }
    }
  }
  // A point inside a commit the runtime does not let our code reach has no cell (its module says why).
  return out.filter((s) => s.crashPoint === null || expectationFor(s.crashPoint, s).expected.kind !== 'not-reached');
}

export interface Selection {
  runtimes?: readonly string[];
  variants?: readonly Variant[];
  crashPoints?: readonly CrashPointName[];
  durabilities?: readonly Durability[];
  /** How worker A leaves: kill (SIGKILL), term (SIGTERM and a grace period); all in the catalogue when omitted. */
  stops?: readonly StopMode[];
  /**
   * Only the configuration each variant's baseline runs in (its runtime's default durability for
   * naive, the hardened one), not every durability mode the runtime offers.
   */
  baselineConfigurations?: boolean;
}

/**
 * Filters the catalogue. A crashed cell is meaningless without its baseline, so the baselines of
 * every selected runtime and variant are always kept, whatever the crash filter says.
 */
export function selectScenarios(sel: Selection, catalogue: Scenario[]): Scenario[] {
  const crashed = catalogue.filter(
    (s) =>
      s.crashPoint !== null &&
      (!sel.runtimes || sel.runtimes.includes(s.runtime)) &&
      (!sel.variants || sel.variants.includes(s.variant)) &&
      (!sel.crashPoints || sel.crashPoints.includes(s.crashPoint)) &&
      (!sel.durabilities || s.durability === null || sel.durabilities.includes(s.durability)) &&
      (!sel.stops || sel.stops.includes(s.stop ?? 'kill')) &&
      (!sel.baselineConfigurations || s.baselineId === scenarioId(s.runtime, s.variant, s.durability, null)),
  );
  const wanted = new Set(crashed.map((s) => s.baselineId));
  for (const s of catalogue) {
    if (
      s.crashPoint === null &&
      (!sel.runtimes || sel.runtimes.includes(s.runtime)) &&
      (!sel.variants || sel.variants.includes(s.variant))
    )
      wanted.add(s.id);
  }
  return [...catalogue.filter((s) => s.crashPoint === null && wanted.has(s.id)), ...crashed];
}
