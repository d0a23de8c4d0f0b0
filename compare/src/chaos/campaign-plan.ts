import type { Variant } from '@vendor-review/pipeline';
import { chaosRunId, runPlan, strikes, type RunPlan, type ScheduleOptions, type Strike } from './schedule.ts';

/**
 * What a campaign is asked to do, and the first of its phases: from its options and its seed alone,
 * which reviews it runs, which uncrashed baselines they are compared with, and when it strikes.
 * Nothing here starts anything, so the same options always give the same plan.
 */
export interface CampaignOptions {
  seed: string;
  /** Reviews per runtime × variant. */
  runs: number;
  runtimes: readonly string[];
  variants: readonly Variant[];
  /** Worker processes of a queue pool, and runs in flight per pool. */
  workers: number;
  /** A run not ended this long after the last strike (or without any progress this long) is stuck. */
  boundMs: number;
  schedule: ScheduleOptions;
  /** A replay: only these run indexes, under these strikes (offsets from the run's own start). */
  only?: { indexes: readonly number[]; strikes: readonly Strike[]; runId: string };
  env?: NodeJS.ProcessEnv;
  command?: string;
}

type PlanOptions = Pick<CampaignOptions, 'seed' | 'runs' | 'schedule' | 'only'>;

/** One run a pool is to start: what it does, its id, and how its workers are named. */
export interface Admission {
  plan: RunPlan;
  runId: string;
  /** The run's number ("007"), or "b0" for a baseline. */
  label: string;
  baseline: boolean;
}

/** How long the strike schedule reaches: far beyond any campaign, it is cut where the campaign ends. */
const HORIZON_MS = 6 * 3600_000;

/** The run indexes each pool reviews: all of them, or a replay's own. */
export function reviewIndexes(o: Pick<CampaignOptions, 'runs' | 'only'>): number[] {
  return o.only ? [...o.only.indexes] : Array.from({ length: o.runs }, (_, i) => i);
}

/** The vendors the reviews ask about, in order of first use: each gets one baseline per pool. */
export function baselineVendors(o: Pick<CampaignOptions, 'runs' | 'schedule' | 'only'>): string[] {
  return [...new Set(reviewIndexes(o).map((i) => runPlan(o.schedule, i).vendor))];
}

/** How many baselines and reviews a campaign with these options runs (for the progress footer). */
export function plannedRuns(o: Pick<CampaignOptions, 'runs' | 'runtimes' | 'variants' | 'schedule' | 'only'>): number {
  const pools = o.runtimes.length * o.variants.length;
  return pools * (reviewIndexes(o).length + baselineVendors(o).length);
}

/** The strikes in time order: the seed's, or those a replay's run met. */
export function strikeSchedule(o: Pick<CampaignOptions, 'schedule' | 'only'>): Strike[] {
  return o.only ? [...o.only.strikes] : strikes(o.schedule, HORIZON_MS);
}

/** One pool's baselines: an uncrashed run per vendor, without faults, its approval never held. */
export function baselineAdmissions(o: PlanOptions, runtimeLabel: string, variant: Variant): Admission[] {
  return baselineVendors(o).map((vendor, v) => ({
    plan: { index: -1, vendor, crash: null, stopMs: null, faults: [], holdApproval: false },
    runId: chaosRunId(o.seed, runtimeLabel, variant, `b${v}`),
    label: `b${v}`,
    baseline: true,
  }));
}

/** One pool's reviews, in order: each under its plan from the seed, the same in every pool. */
export function reviewAdmissions(o: PlanOptions, runtimeLabel: string, variant: Variant): Admission[] {
  return reviewIndexes(o).map((index) => ({
    plan: runPlan(o.schedule, index),
    runId: chaosRunId(o.seed, runtimeLabel, variant, index),
    label: String(index).padStart(3, '0'),
    baseline: false,
  }));
}
