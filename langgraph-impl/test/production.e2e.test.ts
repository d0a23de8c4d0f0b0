/**
 * The production conformance suite against LangGraph: every hazard in both variants, with real
 * worker processes, real PostgreSQL and the real world; verdicts judged from the ledger and the
 * durable records.
 */
import {
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { LANGGRAPH } from '../harness/index.ts';
import { runtime } from '../harness/module.ts';

let lg: RuntimeUnderTest;

productionSpec({
  name: 'LangGraph',
  scenarios: productionCatalogue([LANGGRAPH]),
  run: async (scenarios) => {
    // Its own PostgreSQL: the restart hazard restarts it.
    lg = await runtimeUnderTest(runtime, { name: 'hazards', restartable: true });
    return runHazardsThroughAdapter(() => lg.env())(scenarios);
  },
  teardown: () => lg?.stop(),
});
