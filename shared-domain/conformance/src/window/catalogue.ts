import { DEFAULT_GRANULARITY, granularityOf, type Durability, type Variant } from '@vendor-review/pipeline';
import { type CrashPointName } from '@vendor-review/instrument';
import type { RuntimeInfo } from '../adapter.ts';
import { scenarioId, type Scenario } from '../scenarios.ts';

/**
 * The commit window as data, and the first checkpoint beside it. A step's work ends (the model's answer is in, the tracker has taken
 * the note) and the runtime starts keeping its result; a kill δ ms later lands before, inside or
 * after that commit. One series per runtime configuration and step, one cell per δ and run: the
 * suite's driver (compare's suites/window.ts) picks the δs run by run (sweep.ts).
 */
export type WindowStep = 'start' | 'model' | 'note';
export const WINDOW_STEPS: readonly WindowStep[] = ['start', 'model', 'note'];

/** `kind`: the call the step made, which ran again or not; none for `start`, where only a lost run shows. */
export const WINDOW_STEP_POINTS: Record<
  WindowStep,
  { point: CrashPointName; kind: 'model' | 'tracker' | null; title: string; where: string }
> = {
  start: {
    point: 'start-call',
    kind: null,
    title: 'the first checkpoint',
    where:
      "δ counts from the call that starts the run, in the process that makes it (invoke(), startWorkflow, the submit), and that process is killed: does the run exist and resume, or is it lost (langgraph#8764's question), and does retrying the start with the same id make a second run?",
  },
  model: {
    point: 'after-model',
    kind: 'model',
    title: "after the model's answer",
    where: "the first requirement's model answer received: EXTRACT's paid work is done",
  },
  note: {
    point: 'after-progress',
    kind: 'tracker',
    title: "after the tracker's note",
    where: "the first requirement's tracker note accepted: SAVE_PROGRESS's effect is done",
  },
};

/** The δs tried in order, up to where nothing re-runs any more; sweep.ts adds finer ones where the outcome flips. */
export const WINDOW_DELAYS_MS: readonly number[] = [0, 1, 2, 5, 10, 20, 50, 100, 200];

/** One line of the chart: a runtime configuration, killed after one step's work. */
export interface WindowSeries {
  runtime: string;
  variant: Variant;
  durability: Durability | null;
  step: WindowStep;
}

export interface WindowScenario extends Scenario {
  window: WindowSeries & { delayMs: number };
}

export function windowSeriesId(s: WindowSeries): string {
  return `${s.runtime}/${s.variant}/${s.durability ?? '-'}/${s.step}`;
}

export interface WindowSelection {
  variants?: readonly Variant[];
  durabilities?: readonly Durability[];
  steps?: readonly WindowStep[];
}

/** Every configuration each runtime runs its crash cells in (LangGraph's durability modes too), per step. */
export function windowSeries(runtimes: readonly RuntimeInfo[], sel: WindowSelection = {}): WindowSeries[] {
  const out: WindowSeries[] = [];
  for (const rt of runtimes) {
    if (rt.suites && !rt.suites.includes('window')) continue;
    for (const c of rt.configurations) {
      if (granularityOf(c) !== DEFAULT_GRANULARITY) continue;
      if (sel.variants && !sel.variants.includes(c.variant)) continue;
      if (sel.durabilities && c.durability !== null && !sel.durabilities.includes(c.durability)) continue;
      // The first checkpoint needs the start call in a process a cell kills (RuntimeInfo.startCall).
      for (const step of (sel.steps ?? WINDOW_STEPS).filter((st) => st !== 'start' || rt.startCall))
        out.push({ runtime: rt.name, variant: c.variant, durability: c.durability, step });
    }
  }
  return out;
}

/** One cell: worker A dies δ ms after the step's work ended (at once for 0), worker B resumes. */
export function windowScenario(rt: RuntimeInfo, series: WindowSeries, delayMs: number): WindowScenario {
  const { point } = WINDOW_STEP_POINTS[series.step];
  return {
    id: `window/${windowSeriesId(series)}+${delayMs}`,
    runtime: series.runtime,
    variant: series.variant,
    durability: series.durability,
    crashPoint: point,
    crashOccurrence: 1,
    ...(delayMs > 0 ? { killDelayMs: delayMs } : {}),
    // Judged on its own ledger (measure.ts), not against a baseline.
    baselineId: scenarioId(series.runtime, series.variant, series.durability, null),
    faults: [],
    // The first checkpoint: the run waits for a person until worker A is killed, however late δ is.
    ...(series.step === 'start' ? { approveAfterCrash: true } : { approveAtStart: true }),
    deviations: rt.crashDeviations ?? [],
    window: { ...series, delayMs },
  };
}

export const isWindowScenario = (s: Scenario): s is WindowScenario => 'window' in s;
