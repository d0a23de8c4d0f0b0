import {
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
  runtimeUnderTest,
  type HazardId,
  type RuntimeUnderTest,
} from '@vendor-review/conformance';
import { runtime, TEMPORAL } from '../../harness/index.ts';

/** productionSpec on some of the hazards, against a Temporal of the file's own. */
export function temporalProductionSpec(part: string, hazards: readonly HazardId[]): void {
  let tm: RuntimeUnderTest;
  productionSpec({
    name: `Temporal, ${part}`,
    scenarios: productionCatalogue([TEMPORAL], hazards),
    run: async (scenarios) => {
      // Its own PostgreSQL and a dev server on a database file: the restart hazards restart both.
      tm = await runtimeUnderTest(runtime, { name: 'hazards', restartable: true });
      return runHazardsThroughAdapter(() => tm.env())(scenarios);
    },
    teardown: () => tm?.stop(),
  });
}
