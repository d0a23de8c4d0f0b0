import {
  inLanes,
  jobsFor,
  productionCatalogue,
  RESTARTS_A_SERVER,
  type HazardObservation,
  type HazardScenario,
} from '@vendor-review/conformance';
import { machineRoom } from '../machine-room.ts';
import { ProductionRowSchema, type ProductionRow } from '../report/production-schema.ts';
import { productionReport } from '../report/production-table.ts';
import { buildProductionRows } from '../report/results.ts';
import { PRODUCTION_CSS } from '../report/style.ts';
import { runHazardOn } from '../run-cell.ts';
import { repeatedText, repeatsOf, type Suite, type SuitePlan } from './suite.ts';

/**
 * `--suite production`: the production hazards (one per lesson by default, every one with --full),
 * each through its runtime's adapter, one row per hazard, runtime and variant. Beside the crash
 * cells: most of a hazard's time is spent waiting on timers, leases and frozen workers. Those that
 * restart a server run on servers of their own (infra.restarting), one at a time.
 */
interface ProductionPlan extends SuitePlan {
  jobs: { scenario: HazardScenario; repetition: number }[];
  measured: (h: HazardScenario) => number | null;
}

export const productionSuite: Suite<ProductionPlan, HazardObservation, ProductionRow> = {
  name: 'production',
  about: 'production hazards',
  byDefault: true,
  phase: 'beside',
  rowSchema: ProductionRowSchema,

  plan(options, runtimes, expected) {
    const hazards = productionCatalogue(runtimes, options.hazards).filter(
      (h) => !options.variants || options.variants.includes(h.variant),
    );
    const jobs = jobsFor(hazards, repeatsOf(options));
    const measured = (h: HazardScenario) => expected.hazard(h.id, h.hazard);
    return {
      jobs,
      measured,
      expectedMs: jobs.map((j) => measured(j.scenario)),
      summary: `${jobs.length} production hazard runs (${hazards.length} rows${repeatedText(options, hazards)})`,
      ...(hazards.some((h) => RESTARTS_A_SERVER.has(h.hazard))
        ? { infra: { restartServers: hazards.some((h) => h.hazard === 'restart-server') ? 'every' : 'postgres' } }
        : {}),
    };
  },

  // One progress line per run of a row (a row whose verdict depends on timing runs several times under --full).
  async run(plan, lanes, observer) {
    const { jobs } = plan;
    let done = 0;
    const runOne = async ({ scenario: h, repetition }: (typeof jobs)[number]): Promise<HazardObservation> => {
      const rep = repetition > 0 ? ` #${repetition + 1}` : '';
      const id = `hazard ${h.id}#${repetition}`;
      const label = `${lanes.labelOf(h.runtime)} ${h.variant} ${h.hazard}${rep}`;
      lanes.progress.started(id, label, lanes.expectedMs(plan.measured(h)));
      const o = await runHazardOn(lanes.infra, h, repetition, lanes);
      observer.hazard(o);
      lanes.progress.finished(id);
      lanes.progress.log(
        `[hazard ${++done}/${jobs.length}] ${label}: ${o.verdict ?? o.status}${o.note ? ` · ${o.note.slice(0, 120)}` : ''}`,
      );
      return o;
    };
    // Beside the cells, half as many lanes as cells at once (at least two); once the cells are done,
    // twice as many as the cells had; and more, up to three times, while the CPUs sit idle: most of a
    // hazard's time is spent waiting on timers, leases and frozen workers.
    let cellsDone = false;
    void lanes.quiet.then(() => (cellsDone = true));
    const observations = await inLanes(
      jobs,
      {
        concurrency: () => (cellsDone ? 2 * lanes.concurrency : Math.max(2, Math.floor(lanes.concurrency / 2))),
        widen: lanes.quiet,
        room: machineRoom(0.15),
        recheckMs: 500,
        most: 3 * lanes.concurrency,
        expectedMs: (j) => lanes.expectedMs(plan.measured(j.scenario)),
        // The restart hazards share the servers they restart.
        exclusive: (j) => (RESTARTS_A_SERVER.has(j.scenario.hazard) ? 'restarts' : null),
      },
      runOne,
    );
    return { rows: buildProductionRows(observations, lanes.labelOf), observations };
  },

  sections: (rows, { observations }) => productionReport(rows, observations),
  tally: (rows) => `${rows.length} production hazard rows`,
  css: PRODUCTION_CSS,
};
