import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHazard } from './catalogue.ts';
import type { HazardObservation, HazardScenario } from './types.ts';

/**
 * The production conformance suite: every hazard row a runtime ran must end in the verdict its
 * variant must reach (domain/hazards.ts), or the one documented for that runtime. Called by each
 * runtime's e2e test and by the compare harness's, like crashSpec.
 */
export function productionSpec(o: {
  name: string;
  scenarios: HazardScenario[];
  run(scenarios: HazardScenario[]): Promise<HazardObservation[]>;
  teardown?(): Promise<void>;
  timeoutMs?: number;
}): { get(id: string): HazardObservation } {
  const rows = new Map<string, HazardObservation>();
  const get = (id: string) => {
    const r = rows.get(id);
    if (!r) throw new Error(`no hazard row ${id} was run`);
    return r;
  };
  describe(`production conformance: ${o.name}`, () => {
    beforeAll(
      async () => {
        for (const obs of await o.run(o.scenarios)) rows.set(obs.scenario.id, obs);
      },
      o.timeoutMs ?? 20 * 60_000,
    );
    afterAll(async () => {
      await o.teardown?.();
    });
    it.each(o.scenarios.map((s) => [s.id, s] as const))('%s: reaches the verdict it must', (_id, s) => {
      const obs = get(s.id);
      const { violations, why } = checkHazard(obs);
      expect(
        violations,
        [why && `(deviation: ${why})`, JSON.stringify(obs.figures)].filter(Boolean).join('\n'),
      ).toEqual([]);
    });
  });
  return { get };
}
