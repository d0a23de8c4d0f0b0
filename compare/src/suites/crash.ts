import {
  computeEvidence,
  crashCatalogue,
  jobsFor,
  runMatrix,
  selectScenarios,
  type CellObservation,
  type MatrixJob,
  type Scenario,
} from '@vendor-review/conformance';
import { CELL_CARD_CSS } from '../report/cell-card.ts';
import { CrashRowSchema, type ResultRow } from '../report/crash-schema.ts';
import { CRASH_CSS, crashReport } from '../report/crash-sections.ts';
import { buildRows } from '../report/results.ts';
import { runCellOn } from '../run-cell.ts';
import { repeatedSummary, rowLabel, seconds } from '../table.ts';
import { repeatedText, repeatsOf, type Suite, type SuitePlan } from './suite.ts';

/**
 * `--suite crash`: every crash point in every configuration of every runtime, and each
 * configuration's uncrashed baseline. Worker A dies at the point, worker B resumes the run; the
 * row is what re-ran against the baseline. The shared lanes' lead: `--concurrency` cells at once,
 * the longest first.
 */
interface CrashPlan extends SuitePlan {
  scenarios: Scenario[];
  jobs: MatrixJob[];
  /** What a past run of the cell took, for the lanes' order. */
  measured: (id: string) => number | null;
}

function label(s: Scenario, labelOf: (runtime: string) => string): string {
  return rowLabel({
    runtimeLabel: labelOf(s.runtime),
    variant: s.crashPoint === null ? 'baseline' : s.variant,
    durability: s.durability,
    baselineOf: s.variant,
  });
}

function progressLine(
  obs: CellObservation,
  done: number,
  total: number,
  all: CellObservation[],
  labelOf: (runtime: string) => string,
): string {
  const baseline = all.find((o) => o.scenario.id === obs.scenario.baselineId && o.status === 'completed') ?? null;
  const e = computeEvidence(obs, obs.scenario.crashPoint === null ? obs : baseline);
  const mark = obs.status === 'completed' ? '✓' : obs.status === 'error' ? '✗' : '!';
  const rep = obs.repetition > 0 ? ` #${obs.repetition + 1}` : '';
  const cell = `${rowLabel({
    runtimeLabel: labelOf(obs.scenario.runtime),
    variant: obs.scenario.crashPoint === null ? 'baseline' : obs.scenario.variant,
    durability: obs.durability,
    baselineOf: obs.scenario.variant,
  })} ${obs.scenario.crashPoint ?? ''}${rep}`;
  const facts =
    obs.scenario.crashPoint === null
      ? `${obs.ledger.length} ops`
      : `repeated ${repeatedSummary({ repeated: e.repeated })} · recovery ${seconds(e.recoveryMs)}`;
  const note = obs.note && obs.status !== 'completed' ? ` · ${obs.note.slice(0, 160)}` : '';
  return `[${String(done).padStart(String(total).length)}/${total}] ${mark} ${cell.padEnd(38)} ${obs.status.padEnd(9)} ${seconds(obs.endedAt - obs.startedAt).padStart(7)} · ${facts}${note}`;
}

export const crashSuite: Suite<CrashPlan, CellObservation, ResultRow> = {
  name: 'crash',
  about: 'crash points',
  byDefault: true,
  phase: 'lead',
  rowSchema: CrashRowSchema,

  plan(options, runtimes, expected) {
    const scenarios = selectScenarios(
      {
        variants: options.variants,
        crashPoints: options.crashPoints,
        durabilities: options.durabilities,
        // Without --full or --durability: each variant in the configuration its baseline runs in.
        baselineConfigurations: !options.full && !options.durabilities,
      },
      crashCatalogue(runtimes, { stops: options.stops ?? ['kill'] }),
    );
    const jobs = jobsFor(scenarios, repeatsOf(options));
    return {
      scenarios,
      jobs,
      measured: (id) => expected.cell(id),
      expectedMs: jobs.map((j) => expected.cell(j.scenario.id)),
      summary: `${jobs.length} crash cell runs (${scenarios.length} cells${repeatedText(options, scenarios)})`,
    };
  },

  async run(plan, lanes, observer) {
    const observations: CellObservation[] = [];
    const results = await runMatrix(plan.jobs, {
      concurrency: lanes.concurrency,
      expectedMs: (j) => plan.measured(j.scenario.id),
      run: async ({ scenario, repetition }) => {
        lanes.progress.started(
          `${scenario.id}#${repetition}`,
          `${label(scenario, lanes.labelOf)} ${scenario.crashPoint ?? 'baseline'}${repetition > 0 ? ` #${repetition + 1}` : ''}`,
          lanes.expectedMs(plan.measured(scenario.id)),
        );
        return runCellOn(lanes.infra, scenario, repetition, lanes);
      },
      onDone: (obs, done, total) => {
        observations.push(obs);
        observer.cell(obs);
        lanes.progress.finished(`${obs.scenario.id}#${obs.repetition}`);
        lanes.progress.log(progressLine(obs, done, total, observations, lanes.labelOf));
      },
    });
    const order = (o: CellObservation) => plan.scenarios.findIndex((s) => s.id === o.scenario.id);
    const sorted = results.sort((a, b) => order(a) - order(b) || a.repetition - b.repetition);
    return { rows: buildRows(sorted, lanes.labelOf), observations: sorted };
  },

  sections: (rows, { meta, width, observations }) => crashReport(rows, { meta, width, observations }),
  tally: (rows) => `${rows.length} crash cells`,
  css: `${CRASH_CSS}${CELL_CARD_CSS}`,
};
