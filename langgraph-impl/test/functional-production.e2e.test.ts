/**
 * The production conformance suite against LangGraph's Functional API: every hazard in both
 * variants whose drill it offers (of the deploy drill only the unknown format: see harness/drills.ts), with real worker
 * processes, real PostgreSQL and the real world; verdicts judged from the ledger and the durable
 * records.
 */
import {
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
  type HazardObservation,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { LANGGRAPH_FUNCTIONAL } from '../harness/index.ts';
import { runtime } from '../harness/functional/module.ts';

let lf: RuntimeUnderTest;

/** Every hazard's verdict and figures, for MEASUREMENTS.md (LF_SUMMARY=1 prints them). */
let observed: HazardObservation[] = [];
const only = process.env.LF_HAZARDS; // a comma-separated filter on scenario ids, for a look by hand

productionSpec({
  name: 'LangGraph Functional API',
  scenarios: productionCatalogue([LANGGRAPH_FUNCTIONAL]).filter(
    (s) => !only || only.split(',').some((f) => s.id.includes(f)),
  ),
  run: async (scenarios) => {
    // Its own PostgreSQL: the restart hazard restarts it.
    lf = await runtimeUnderTest(runtime, { name: 'hazards', restartable: true });
    observed = await runHazardsThroughAdapter(() => lf.env())(scenarios);
    return observed;
  },
  teardown: async () => {
    if (process.env.LF_SUMMARY)
      for (const o of observed)
        console.log(`${o.scenario.id} | ${o.status} | ${o.verdict} | ${o.note ?? ''} | ${JSON.stringify(o.figures)}`);
    await lf?.stop();
  },
});
