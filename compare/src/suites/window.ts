import {
  jobsFor,
  nextDelays,
  oneRequirement,
  runMatrix,
  spanLock,
  windowOutcome,
  windowPoint,
  windowScenario,
  windowSeriesId,
  windowSeries,
  WINDOW_STEP_POINTS,
  type CellObservation,
  type RuntimeInfo,
  type WindowOutcome,
  type WindowPoint,
  type WindowScenario,
  type WindowSeries,
} from '@vendor-review/conformance';
import { WINDOW_RUNS } from '../options.ts';
import { buildWindowRows } from '../report/window-rows.ts';
import { WindowRowSchema, type WindowRow } from '../report/window-schema.ts';
import { windowSection } from '../report/window-table.ts';
import { runCellOn } from '../run-cell.ts';
import { seconds } from '../table.ts';
import type { RunObserver } from '../observer.ts';
import type { Lanes, Suite, SuitePlan } from './suite.ts';

/**
 * `--suite window`: for every runtime configuration and step, worker A dies δ ms after the step's
 * work ended and worker B resumes, as in the crash matrix (`runCell`). The δs are chosen round by
 * round (conformance window/sweep.ts): every series climbs the ladder until nothing re-runs, then
 * tries finer where the outcome flipped. Each round's cells run `--concurrency` at a time, `runs`
 * per δ (`--repeat`, default WINDOW_RUNS), but each δ alone: worker A waits at its point until every
 * other worker is frozen (conformance window/alone.ts). The review has one requirement: the window is about one step, and a short run is many more samples.
 */
interface WindowPlan extends SuitePlan {
  runtimes: readonly RuntimeInfo[];
  series: WindowSeries[];
  /** Runs per delay. */
  runs: number;
  /** The ladder of delays (default WINDOW_DELAYS_MS). */
  delays: readonly number[] | undefined;
}

export const windowSuite: Suite<WindowPlan, CellObservation, WindowRow> = {
  name: 'window',
  about:
    'the commit window (how long after a step finishes a kill still runs it again, and the first checkpoint: about 13 minutes for five runtimes on the 2-core machine; each measured worker A, from its start to its kill, with every other worker frozen and the harness’s other work held, the servers and PostgreSQL shared)',
  byDefault: false,
  // Before the crash and hazard rows, not beside them: a machine kept busy by others lengthens the window.
  phase: 'alone',
  rowSchema: WindowRowSchema,

  plan(options, runtimes) {
    const series = windowSeries(runtimes, {
      variants: options.variants,
      durabilities: options.durabilities,
      steps: options.windowSteps,
    });
    const runs = options.repeat ?? WINDOW_RUNS;
    return {
      runtimes,
      series,
      runs,
      delays: options.windowDelays,
      // The delays are chosen as the runs come in: each round adds its runs (progress.more).
      expectedMs: [],
      summary: series.length
        ? `the commit window: ${series.length} series (runtime configuration × step), ${runs} runs per delay, the delays chosen as the runs come in`
        : null,
    };
  },

  async run(plan, lanes, observer) {
    const observations = await sweep(plan, lanes, observer);
    return { rows: buildWindowRows(observations, lanes.labelOf), observations };
  },

  sections: (rows, { meta }) => (rows.length ? [windowSection(rows, meta.runtimes, { level: 2 })] : []),
};

/** Round after round, the next delays of every series, until none is left to try. */
async function sweep(o: WindowPlan, lanes: Lanes, observer: RunObserver): Promise<CellObservation[]> {
  const request = oneRequirement(lanes.request);
  const expectedMs = lanes.expectedMs(null);
  const points = new Map<string, WindowPoint[]>(o.series.map((s) => [windowSeriesId(s), []]));
  const all: CellObservation[] = [];
  // One measured worker A at a time, every other worker frozen, whatever --concurrency says.
  const spans = spanLock();
  const label = (s: WindowScenario, repetition: number) => {
    const w = s.window;
    return `${lanes.labelOf(w.runtime)} ${w.variant}${w.durability ? ` ${w.durability}` : ''} ${WINDOW_STEP_POINTS[w.step].point} +${w.delayMs} ms #${repetition + 1}`;
  };
  for (let round = 1; ; round++) {
    const scenarios = o.series.flatMap((series) => {
      const info = o.runtimes.find((i) => i.name === series.runtime)!;
      return nextDelays(points.get(windowSeriesId(series))!, o.delays).map((d) => windowScenario(info, series, d));
    });
    if (!scenarios.length) break;
    const jobs = jobsFor(scenarios, o.runs);
    lanes.progress.more(jobs.length, expectedMs);
    lanes.progress.log(`[window] round ${round}: ${scenarios.length} delay(s) × ${o.runs} run(s)`);
    const outcomes = new Map<CellObservation, WindowOutcome>();
    const cells = await runMatrix(jobs, {
      concurrency: lanes.concurrency,
      run: async ({ scenario, repetition }) => {
        const s = scenario as WindowScenario;
        const id = `window ${s.id}#${repetition}`;
        lanes.progress.started(id, label(s, repetition), expectedMs);
        const obs = await runCellOn(lanes.infra, s, repetition, { request, boundMs: lanes.boundMs, spans });
        observer.cell(obs);
        lanes.progress.finished(id);
        const w = windowOutcome(obs as CellObservation & { scenario: WindowScenario });
        outcomes.set(obs, w);
        const busy = w.cpuBusy === null ? '' : `, CPU ${Math.round(w.cpuBusy * 100)} % busy`;
        const real = w.realDelayMs === null ? '' : ` (died ${w.realDelayMs.toFixed(1)} ms after${busy})`;
        const verdict = w.lost
          ? 'the run was lost'
          : w.reran === null
            ? `not judged: ${(w.why ?? '').slice(0, 160)}`
            : w.reran
              ? 'ran again'
              : 'kept';
        lanes.progress.log(
          `[window] ${w.reran === null && !w.lost ? '✗' : '✓'} ${label(s, repetition).padEnd(44)} ${seconds(obs.endedAt - obs.startedAt).padStart(7)} · ${verdict}${real}`,
        );
        return obs;
      },
    });
    all.push(...cells);
    for (const s of scenarios) {
      const mine = cells.filter((c) => c.scenario.id === s.id).map((c) => outcomes.get(c)!);
      points.get(windowSeriesId(s.window))!.push(windowPoint(s.window.delayMs, mine));
    }
  }
  return all;
}
