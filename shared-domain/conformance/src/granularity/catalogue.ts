import { GRANULARITIES, granularityOf, type Granularity, type Variant } from '@vendor-review/pipeline';
import { type CrashPointName } from '@vendor-review/instrument';
import { type RunConfig, type RuntimeInfo } from '../adapter.ts';
import type { Scenario } from '../scenarios.ts';

/**
 * The granularity sweep as data: for every granularity a runtime offers, one uncrashed run (what
 * the boundaries cost) and two crashed ones (what a crash repeats), early and late in the research.
 * The crashes are named by where they fall in the work, not by step, so the same kill lands in
 * every granularity: inside whatever node or activity holds that moment.
 */
export type GranularityCrash = 'early' | 'late';
export const GRANULARITY_CRASHES: readonly GranularityCrash[] = ['early', 'late'];

export const GRANULARITY_CRASH_POINTS: Record<
  GranularityCrash,
  { point: CrashPointName; occurrence: (requirements: number) => number; where: string }
> = {
  early: {
    point: 'after-model',
    occurrence: () => 1,
    where: "the first requirement's model answer is in, its step not yet durable",
  },
  late: {
    point: 'after-progress',
    occurrence: (requirements) => requirements,
    where:
      "the last requirement's tracker note is written, its step not yet durable: just before the research's last boundary",
  },
};

export interface GranularityScenario extends Scenario {
  granularity: Granularity;
  /** null: the uncrashed run the crashed ones are judged against, and whose timings are the cost. */
  crash: GranularityCrash | null;
}

export function granularityScenarioId(
  runtime: string,
  variant: Variant,
  granularity: Granularity,
  crash: GranularityCrash | null,
): string {
  return `${runtime}/${variant}/${granularity}/${crash ?? 'uncrashed'}`;
}

/**
 * The configurations a runtime sweeps, per variant: each granularity it lists, coarsest first, at
 * the durability its coarser ones use (LangGraph naive: sync, so every boundary is paid on the way).
 */
export function sweptConfigurations(rt: RuntimeInfo, variant: Variant): (RunConfig & { granularity: Granularity })[] {
  const coarser = rt.configurations.filter((c) => c.variant === variant && granularityOf(c) !== 'fine');
  if (!coarser.length) return [];
  const durability = coarser[0]!.durability;
  return GRANULARITIES.flatMap((granularity) => {
    const c = rt.configurations.find(
      (x) => x.variant === variant && x.durability === durability && granularityOf(x) === granularity,
    );
    return c ? [{ ...c, granularity }] : [];
  });
}

export interface GranularitySelection {
  /** Default: hardened only (what production runs; naive is there for a reader who asks). */
  variants?: readonly Variant[];
  granularities?: readonly Granularity[];
  crashes?: readonly GranularityCrash[];
  /** How many requirements the review has: where "late" is. */
  requirements: number;
}

/** Uncrashed runs first (their timings want a quiet machine), then the crashed ones. */
export function granularityCatalogue(
  runtimes: readonly RuntimeInfo[],
  sel: GranularitySelection,
): GranularityScenario[] {
  const uncrashed: GranularityScenario[] = [];
  const crashed: GranularityScenario[] = [];
  for (const rt of runtimes) {
    if (rt.suites && !rt.suites.includes('granularity')) continue;
    for (const variant of sel.variants ?? ['hardened']) {
      for (const config of sweptConfigurations(rt, variant)) {
        const { granularity, durability } = config;
        if (sel.granularities && !sel.granularities.includes(granularity)) continue;
        const baselineId = granularityScenarioId(rt.name, variant, granularity, null);
        const base = {
          runtime: rt.name,
          variant,
          durability,
          granularity,
          baselineId,
          faults: [],
          approveAtStart: true,
          deviations: rt.crashDeviations ?? [],
        };
        uncrashed.push({ ...base, id: baselineId, crash: null, crashPoint: null });
        for (const crash of sel.crashes ?? GRANULARITY_CRASHES) {
          const { point, occurrence } = GRANULARITY_CRASH_POINTS[crash];
          crashed.push({
            ...base,
            id: granularityScenarioId(rt.name, variant, granularity, crash),
            crash,
            crashPoint: point,
            crashOccurrence: occurrence(sel.requirements),
          });
        }
      }
    }
  }
  return [...uncrashed, ...crashed];
}
