import type { RuntimeAdapter } from '@vendor-review/pipeline';
import { cellRequest, type HazardInfra } from '@vendor-review/conformance';
import { workerBundle } from '@vendor-review/testbed';
import { createTemporalAdapter, WORKER_ENTRY, WORKFLOW_BUNDLER } from '../../src/index.ts';
import { startTestEnvironment, type TestEnvironment } from './environment.ts';

/**
 * What a conformance suite needs to put Temporal through its scenarios: a dev server, the world, a
 * fresh database, the adapter with bundled workers and the prebuilt workflow bundle.
 */
export interface TemporalUnderTest {
  adapter: RuntimeAdapter;
  environment: TestEnvironment;
  env(): {
    adapter: RuntimeAdapter;
    worldUrl: string;
    request: ReturnType<typeof cellRequest>;
    boundMs: number;
    infra?: HazardInfra;
  };
  stop(): Promise<void>;
}

/** `restartable`: a dev server on a database file and a PostgreSQL of its own, handed to the restart hazard. */
export async function temporalUnderTest(
  workflowBundle: string,
  o: { restartable?: boolean } = {},
): Promise<TemporalUnderTest> {
  const [environment, worker] = await Promise.all([
    startTestEnvironment({ restartable: o.restartable ?? false }),
    workerBundle(WORKER_ENTRY, WORKFLOW_BUNDLER),
  ]);
  const adapter = await createTemporalAdapter({
    temporal: environment.temporal,
    databaseUrl: environment.db.url,
    worldUrl: environment.world.url,
    bundlePath: workflowBundle,
    workerEntry: worker.path,
    uiUrl: null,
  });
  return {
    adapter,
    environment,
    env: () => ({
      adapter,
      worldUrl: environment.world.url,
      request: cellRequest(environment.world.url),
      boundMs: 120_000,
      ...(environment.postgres ? { infra: { postgres: environment.postgres, temporal: environment.temporal } } : {}),
    }),
    async stop() {
      await adapter.close();
      await environment.stop();
    },
  };
}
