import type { ReviewRequestInput } from '@vendor-review/pipeline';
import {
  jobsFor,
  nextDelays,
  oneRequirement,
  runMatrix,
  windowOutcome,
  windowPoint,
  windowScenario,
  windowSeriesId,
  WINDOW_STEP_POINTS,
  type CellObservation,
  type RuntimeInfo,
  type WindowOutcome,
  type WindowPoint,
  type WindowScenario,
  type WindowSeries,
} from '@vendor-review/conformance';
import { runCellOn, type Infra } from './infra.ts';
import type { Progress } from './progress.ts';
import { seconds } from './table.ts';

/**
 * `--suite window`: for every runtime configuration and step, worker A dies δ ms after the step's
 * work ended and worker B resumes, as in the crash matrix (`runCell`). The δs are chosen round by
 * round (conformance window/sweep.ts): every series climbs the ladder until nothing re-runs, then
 * tries finer where the outcome flipped. Each round's cells run `concurrency` at a time, `runs` per δ.
 * The review has one requirement: the window is about one step, and a short run is many more samples.
 */
export async function runWindowSuite(o: {
  infos: readonly RuntimeInfo[];
  series: readonly WindowSeries[];
  infra: Infra;
  request: ReviewRequestInput;
  runs: number;
  /** The ladder of delays (default WINDOW_DELAYS_MS). */
  delays?: readonly number[];
  concurrency: number;
  boundMs: number;
  progress: Progress;
  labelOf: (runtime: string) => string;
  /** What a cell is expected to take, for the ETA. */
  expectedMs: number;
}): Promise<CellObservation[]> {
  const request = oneRequirement(o.request);
  const points = new Map<string, WindowPoint[]>(o.series.map((s) => [windowSeriesId(s), []]));
  const all: CellObservation[] = [];
  const label = (s: WindowScenario, repetition: number) => {
    const w = s.window;
    return `${o.labelOf(w.runtime)} ${w.variant}${w.durability ? ` ${w.durability}` : ''} ${WINDOW_STEP_POINTS[w.step].point} +${w.delayMs} ms #${repetition + 1}`;
  };
  for (let round = 1; ; round++) {
    const scenarios = o.series.flatMap((series) => {
      const info = o.infos.find((i) => i.name === series.runtime)!;
      return nextDelays(points.get(windowSeriesId(series))!, o.delays).map((d) => windowScenario(info, series, d));
    });
    if (!scenarios.length) break;
    const jobs = jobsFor(scenarios, o.runs);
    o.progress.more(jobs.length, o.expectedMs);
    o.progress.log(`[window] round ${round}: ${scenarios.length} delay(s) × ${o.runs} run(s)`);
    const outcomes = new Map<CellObservation, WindowOutcome>();
    const cells = await runMatrix(jobs, {
      concurrency: o.concurrency,
      run: async ({ scenario, repetition }) => {
        const s = scenario as WindowScenario;
        const id = `window ${s.id}#${repetition}`;
        o.progress.started(id, label(s, repetition), o.expectedMs);
        const obs = await runCellOn(o.infra, s, repetition, { request, boundMs: o.boundMs });
        o.progress.finished(id);
        const w = windowOutcome(obs as CellObservation & { scenario: WindowScenario });
        outcomes.set(obs, w);
        const real = w.realDelayMs === null ? '' : ` (died ${w.realDelayMs.toFixed(1)} ms after)`;
        const verdict = w.lost
          ? 'the run was lost'
          : w.reran === null
            ? `not judged: ${(w.why ?? '').slice(0, 160)}`
            : w.reran
              ? 'ran again'
              : 'kept';
        o.progress.log(
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
