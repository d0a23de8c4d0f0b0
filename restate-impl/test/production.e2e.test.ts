/**
 * The production conformance suite against Restate: every hazard in both variants, with real
 * endpoint processes, the real Restate server, PostgreSQL and the world; verdicts judged from the
 * ledger and the server's journal. Rows whose drill the adapter lacks skip, saying so.
 */
import {
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { RESTATE_INFO } from '../harness/index.ts';
import { runtime } from '../harness/module.ts';

let rs: RuntimeUnderTest;

productionSpec({
  name: 'Restate',
  scenarios: productionCatalogue([RESTATE_INFO]),
  run: async (scenarios) => {
    // Its own PostgreSQL and server: the restart hazards restart them.
    rs = await runtimeUnderTest(runtime, { name: 'hazards', restartable: true });
    return runHazardsThroughAdapter(() => rs.env())(scenarios);
  },
  teardown: () => rs?.stop(),
});
