/**
 * The production conformance suite against DBOS: every hazard in both variants, with real worker
 * processes, real PostgreSQL and the real world; verdicts judged from the ledger and the journal.
 * The adapter has no deploy drill, and DBOS no in-memory mode (its journal is always in
 * PostgreSQL): those rows skip, saying so; so does restart-server, which has no server here.
 */
import {
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
  runtimeUnderTest,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { DBOS_INFO } from '../harness/index.ts';
import { runtime } from '../harness/module.ts';

let db: RuntimeUnderTest;

productionSpec({
  name: 'DBOS',
  scenarios: productionCatalogue([DBOS_INFO]),
  run: async (scenarios) => {
    // Its own PostgreSQL: the restart hazard restarts it.
    db = await runtimeUnderTest(runtime, { name: 'hazards', restartable: true });
    return runHazardsThroughAdapter(() => db.env())(scenarios);
  },
  teardown: () => db?.stop(),
});
