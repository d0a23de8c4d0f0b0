import {
  CELL_REQUIREMENTS,
  granularityCatalogue,
  jobsFor,
  measureGranularityCell,
  runMatrix,
  type CellObservation,
  type GranularityScenario,
  type MatrixJob,
} from '@vendor-review/conformance';
import { buildGranularityRows, ms, pointLabel, repeatedText } from '../report/granularity-rows.ts';
import { GranularityRowSchema, type GranularityRow } from '../report/granularity-schema.ts';
import { granularitySection } from '../report/granularity-table.ts';
import { GRANULARITY_CSS } from '../report/style.ts';
import { runCellOn } from '../run-cell.ts';
import { seconds } from '../table.ts';
import type { Suite, SuitePlan } from './suite.ts';

/**
 * `--suite granularity`: every granularity each runtime offers, uncrashed and crashed early and
 * late, through the same cell runner as the crash suite. The uncrashed runs are the cost of the
 * boundaries, timed from the world's ledger, so they run one at a time before anything else shares
 * the machine (`--repeat` times each, the table shows the median); the crashed runs then go
 * `--concurrency` at a time, their figures do not depend on the load. Opt-in: its cells add about a
 * minute on two cores (compare/MEASUREMENTS.md).
 */
interface GranularityPlan extends SuitePlan {
  scenarios: GranularityScenario[];
  repeat: number;
}

export const granularitySuite: Suite<GranularityPlan, CellObservation, GranularityRow> = {
  name: 'granularity',
  about: 'node size (what a crash repeats against what boundaries cost)',
  byDefault: false,
  phase: 'alone',
  rowSchema: GranularityRowSchema,

  plan(options, runtimes) {
    const scenarios = granularityCatalogue(runtimes, {
      requirements: CELL_REQUIREMENTS,
      ...(options.variants ? { variants: options.variants } : {}),
      ...(options.granularities ? { granularities: options.granularities } : {}),
    });
    const repeat = options.repeat ?? 1;
    const runs = scenarios.filter((s) => s.crash === null).length * repeat + scenarios.filter((s) => s.crash).length;
    return {
      scenarios,
      repeat,
      expectedMs: new Array<null>(runs).fill(null),
      summary: scenarios.length
        ? `${runs} granularity cell runs (${scenarios.length} cells), the uncrashed ones first, alone`
        : null,
    };
  },

  async run(plan, lanes, observer) {
    const label = (s: GranularityScenario, repetition: number) =>
      `${pointLabel({ runtimeLabel: lanes.labelOf(s.runtime), granularity: s.granularity })} ${s.crash ?? 'uncrashed'}${repetition ? ` #${repetition + 1}` : ''}`;
    const done: CellObservation[] = [];
    const run = async ({ scenario, repetition }: MatrixJob): Promise<CellObservation> => {
      const s = scenario as GranularityScenario;
      const id = `granularity ${s.id}#${repetition}`;
      lanes.progress.started(id, label(s, repetition));
      const obs = await runCellOn(lanes.infra, s, repetition, lanes);
      observer.cell(obs);
      lanes.progress.finished(id);
      done.push(obs);
      const base = done.find((x) => x.scenario.id === s.baselineId && x.status === 'completed') ?? null;
      const f = measureGranularityCell(obs, s.crash ? base : null);
      const facts = s.crash
        ? `repeated ${repeatedText({ status: obs.status, repeatedByKind: f.repeatedByKind })} · recovery ${seconds(f.recoveryMs)}`
        : `${f.durableRecords ?? '?'} durable records · overhead ${ms(f.overheadMs)}`;
      lanes.progress.log(
        `[granularity] ${obs.status === 'completed' ? '✓' : '✗'} ${label(s, repetition).padEnd(34)} ${obs.status.padEnd(9)} ${seconds(obs.endedAt - obs.startedAt).padStart(7)} · ${facts}${obs.note && obs.status !== 'completed' ? ` · ${obs.note.slice(0, 160)}` : ''}`,
      );
      return obs;
    };
    const uncrashed = plan.scenarios.filter((s) => s.crash === null);
    const crashed = plan.scenarios.filter((s) => s.crash !== null);
    const quiet = await runMatrix(jobsFor(uncrashed, plan.repeat), { concurrency: 1, run });
    const busy = await runMatrix(jobsFor(crashed, 1), { concurrency: lanes.concurrency, run });
    const observations = [...quiet, ...busy];
    return { rows: buildGranularityRows(observations, lanes.labelOf), observations };
  },

  sections: (rows, { meta }) => (rows.length ? [granularitySection(rows, meta.runtimes, { level: 2 })] : []),
  css: GRANULARITY_CSS,
};
