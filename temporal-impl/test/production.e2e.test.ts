/**
 * The production conformance suite against Temporal: every hazard in both variants, with real
 * worker processes, a real dev server, real PostgreSQL and the real world; verdicts judged from
 * the ledger and the history.
 */
import {
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { runtime, TEMPORAL } from '../harness/index.ts';

let tm: RuntimeUnderTest;

productionSpec({
  name: 'Temporal',
  scenarios: productionCatalogue([TEMPORAL]),
  run: async (scenarios) => {
    // Its own PostgreSQL and a dev server on a database file: the restart hazard restarts both.
    tm = await runtimeUnderTest(runtime, { name: 'hazards', restartable: true });
    return runHazardsThroughAdapter(() => tm.env())(scenarios);
  },
  teardown: () => tm?.stop(),
});
