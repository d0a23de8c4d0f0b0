import type { StopMode } from '@vendor-review/instrument';
import { describe, expect, it } from 'vitest';
import { crashSpec, runThroughAdapter, type CrashSpecCells } from './crash-spec.ts';
import { productionCatalogue, runHazardsThroughAdapter } from './production/catalogue.ts';
import { productionSpec } from './production/spec.ts';
import type { HazardObservation, HazardScenario } from './production/types.ts';
import type { RuntimeModule } from './runtime-module.ts';
import { crashCatalogue, type Scenario } from './scenarios.ts';
import type { CellObservation } from './observation.ts';
import { runtimeUnderTest, type RuntimeUnderTest } from './under-test.ts';

/**
 * A runtime package's whole conformance suite in one call, as LangGraph's checkpoint-validation
 * gives each saver: the catalogue's scenarios for the module's runtime, run against a fresh
 * runtimeUnderTest started through the module, stopped afterwards.
 */
interface ModuleSpecOptions<S, O> {
  /** A narrower set of the catalogue's scenarios (a look by hand); all of them by default. */
  filter?: (scenario: S) => boolean;
  /** Every observation, repeats included, once the run is over. */
  onObserved?: (observed: O[]) => void;
}

export function crashSpecOf(
  module: RuntimeModule,
  o: ModuleSpecOptions<Scenario, CellObservation> & {
    stops?: readonly StopMode[];
    /** A journal of step results (its name): at `parallel-fetch` it holds the siblings that finished and not the one cut off. */
    journal?: string;
  } = {},
): CrashSpecCells {
  let under: RuntimeUnderTest | undefined;
  const spec = crashSpec({
    name: module.info.title,
    scenarios: crashCatalogue([module.info], o.stops ? { stops: o.stops } : {}).filter(o.filter ?? (() => true)),
    run: async (scenarios) => {
      under = await runtimeUnderTest(module, { name: 'crash' });
      const observed = await runThroughAdapter(() => under!.env())(scenarios);
      o.onObserved?.(observed);
      return observed;
    },
    teardown: () => under?.stop() ?? Promise.resolve(),
  });
  if (o.journal) siblingsJournaled(spec, module.info.name, o.journal);
  return spec;
}

function siblingsJournaled(spec: CrashSpecCells, runtime: string, journal: string): void {
  describe(`what ${journal} kept at the kill`, () => {
    it.each(['naive', 'hardened'])(
      '%s: the finished FETCH siblings have their results recorded at the kill, the cut-off one has not',
      (variant) => {
        const obs = spec.get(`${runtime}/${variant}/-/parallel-fetch`);
        const [, , of] = /sibling=(\d+)\/(\d+)/.exec(obs.crash?.detail ?? '') ?? [];
        expect(Number(of)).toBeGreaterThanOrEqual(2);
        const fetches = (obs.durableAtCrash?.marks ?? []).filter((m) => m.step === 'FETCH');
        const lastReq = /FETCH:([a-z0-9-]+):/.exec(fetches.at(-1)?.long ?? '')?.[1];
        expect(fetches.filter((m) => m.long.includes(`FETCH:${lastReq}:`)).length).toBe(Number(of) - 1);
      },
    );
  });
}

/** The production hazards; on their own PostgreSQL and servers, which the restart hazards restart. */
export function productionSpecOf(
  module: RuntimeModule,
  o: ModuleSpecOptions<HazardScenario, HazardObservation> = {},
): { get(id: string): HazardObservation } {
  let under: RuntimeUnderTest | undefined;
  return productionSpec({
    name: module.info.title,
    scenarios: productionCatalogue([module.info]).filter(o.filter ?? (() => true)),
    run: async (scenarios) => {
      under = await runtimeUnderTest(module, { name: 'hazards', restartable: true });
      const observed = await runHazardsThroughAdapter(() => under!.env())(scenarios);
      o.onObserved?.(observed);
      return observed;
    },
    teardown: () => under?.stop() ?? Promise.resolve(),
  });
}
