/**
 * The production conformance suite against Temporal: every hazard in both variants, with real
 * worker processes, a real dev server, real PostgreSQL and the real world; verdicts judged from
 * the ledger and the history.
 */
import { productionCatalogue, productionSpec, runHazardsThroughAdapter } from '@vendor-review/conformance';
import { inject } from 'vitest';
import { TEMPORAL } from '../src/index.ts';
import { temporalUnderTest, type TemporalUnderTest } from './support/runtime.ts';

let tm: TemporalUnderTest;

productionSpec({
  name: 'Temporal',
  scenarios: productionCatalogue([TEMPORAL]),
  run: async (scenarios) => {
    // Its own PostgreSQL and a dev server on a database file: the restart hazard restarts both.
    tm = await temporalUnderTest(inject('workflowBundle'), { restartable: true });
    return runHazardsThroughAdapter(() => tm.env())(scenarios);
  },
  teardown: () => tm?.stop(),
});
