import type { CellObservation } from '@vendor-review/domain/conformance';
import { baselineObservation, crashedObservation, FIXTURE_RUNTIMES } from '@vendor-review/domain/conformance/fixtures';
import { buildRows, type Results } from '../src/report/results.ts';

/** A small constructed comparison: baselines, and a few crashed cells per runtime, as report input. */
export function fixtureObservations(): CellObservation[] {
  const out: CellObservation[] = [];
  for (const runtime of ['langgraph', 'temporal'] as const) {
    for (const variant of ['naive', 'hardened'] as const) {
      out.push(baselineObservation(runtime, variant));
      out.push(crashedObservation({ runtime, variant, crashPoint: 'boundary', crashAfter: 4, resumeFrom: 4 }));
      out.push(crashedObservation({ runtime, variant, crashPoint: 'after-model', crashAfter: 5, resumeFrom: 4 }));
      out.push(
        crashedObservation({
          runtime,
          variant,
          crashPoint: 'after-deliver',
          crashAfter: 12,
          resumeFrom: 11,
          dedupe: variant === 'hardened',
        }),
      );
    }
  }
  return out;
}

export function fixtureResults(observations = fixtureObservations()): Results {
  return {
    rows: buildRows(observations, (r) => FIXTURE_RUNTIMES[r as 'langgraph' | 'temporal'].label),
    meta: {
      versions: {
        langgraph: '1.7.3',
        langgraphCheckpointPostgres: '1.0.5',
        temporalSdk: '1.24.0',
        temporalServer: '1.9.1',
        node: process.versions.node,
      },
      infrastructure: {
        world: 'simulated world at http://127.0.0.1:1',
        postgres: 'embedded PostgreSQL',
        temporal: 'dev server',
        temporalUi: null,
        built: [],
      },
      wallTimeMs: 61_000,
      startedAt: new Date(0).toISOString(),
      machine: { cpus: 2, platform: 'linux x64' },
      options: {},
      runtimes: Object.values(FIXTURE_RUNTIMES).map(({ name, label, title }) => ({ name, label, title })),
      cells: 0,
      notRun: 0,
    },
  };
}
