import {
  hazardHarm,
  type CellObservation,
  type HazardObservation,
  type HazardScenario,
} from '@vendor-review/conformance';
import { SCHEMA_VERSION } from '../src/report/results-schema.ts';
import {
  baselineObservation,
  crashedObservation,
  FAKE_RUNTIMES,
  type FakeRuntime,
} from '@vendor-review/conformance/fixtures';
import { buildProductionRows, buildRows, type Results } from '../src/report/results.ts';

/** A small constructed comparison: baselines, and a few crashed cells per runtime, as report input. */
export function fixtureObservations(): CellObservation[] {
  const out: CellObservation[] = [];
  for (const runtime of ['checkpointer', 'journal'] as const) {
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

/** One run of a hazard that ran and reached `verdict`, as a real run reports it. */
export function hazardObservation(
  s: Omit<HazardScenario, 'id'>,
  verdict: string,
  figures: HazardObservation['figures'] = {},
): HazardObservation {
  return {
    scenario: { ...s, id: `${s.hazard}/${s.runtime}/${s.variant}` },
    repetition: 0,
    status: 'ran',
    verdict,
    figures,
    runId: `rev-${s.runtime}-${s.variant}`,
    note: null,
    startedAt: 0,
    endedAt: 1500,
    ledger: [],
    durable: null,
    harm: hazardHarm([]),
  };
}

/** Production hazard rows as a real run would give them: one that conforms, one documented, one that does not. */
export function fixtureHazards(): HazardObservation[] {
  const row = hazardObservation;
  return [
    row({ hazard: 'retry-permanent', runtime: 'checkpointer', variant: 'hardened', deviations: [] }, 'dead-lettered', {
      attempts: 1,
      'dead letter': 'SAVE_PROGRESS, 1 attempt(s): PermanentError: HTTP 422',
    }),
    row(
      {
        hazard: 'retry-permanent',
        runtime: 'journal',
        variant: 'naive',
        deviations: FAKE_RUNTIMES.journal.hazardDeviations ?? [],
      },
      'retried-permanent',
      {
        attempts: 3,
        'seconds watched': 3.2,
      },
    ),
    row({ hazard: 'retry-permanent', runtime: 'journal', variant: 'hardened', deviations: [] }, 'looks-stuck', {
      attempts: 7,
      'dead letter': null,
    }),
  ];
}

const labelOf = (r: string) => FAKE_RUNTIMES[r as FakeRuntime].label;

export function fixtureResults(observations = fixtureObservations(), hazards = fixtureHazards()): Results {
  return {
    schemaVersion: SCHEMA_VERSION,
    rows: [...buildRows(observations, labelOf), ...buildProductionRows(hazards, labelOf)],
    meta: {
      versions: {
        runtimes: {
          checkpointer: { 'acme-checkpointer': '1.7.3', 'acme-checkpointer-postgres': '1.0.5' },
          journal: { 'acme-journal-worker': '1.24.0' },
        },
        servers: { 'Acme server': '1.9.1' },
        node: process.versions.node,
      },
      infrastructure: {
        world: 'simulated world at http://127.0.0.1:1',
        model: 'simulated sim-4o-mini, priced by the world',
        postgres: 'embedded PostgreSQL',
        servers: [{ title: 'Acme server', description: 'a server of its own at 127.0.0.1:2', ui: null }],
        restartHazards: null,
        built: [],
      },
      environment: { inForce: ['DATABASE_URL=postgres://u:***@db:5432/x'], notPassedToWorkers: ['OPENAI_BASE_URL'] },
      wallTimeMs: 61_000,
      startedAt: new Date(0).toISOString(),
      machine: { cpus: 2, platform: 'linux x64' },
      options: {},
      runtimes: Object.values(FAKE_RUNTIMES).map(({ name, label, title, colour }) => ({
        name,
        label,
        title,
        colour,
      })),
      cells: 0,
      notRun: 0,
    },
  };
}
