/**
 * The production conformance suite against Temporal: every hazard in both variants, with real
 * worker processes, a real dev server, real PostgreSQL and the real world; verdicts judged from
 * the ledger and the history.
 */
import {
  cellRequest,
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
} from '@vendor-review/domain/conformance';
import { workerBundle } from '@vendor-review/domain/infra';
import type { RuntimeAdapter } from '@vendor-review/domain';
import { inject } from 'vitest';
import { createTemporalAdapter, TEMPORAL, WORKER_ENTRY } from '../src/index.ts';
import { startTestEnvironment, type TestEnvironment } from './support/environment.ts';

let env: TestEnvironment;
let adapter: RuntimeAdapter;

productionSpec({
  name: 'Temporal',
  scenarios: productionCatalogue([TEMPORAL]),
  run: async (scenarios) => {
    env = await startTestEnvironment();
    const { path: workerEntry } = await workerBundle(WORKER_ENTRY, ['@temporalio/*']);
    adapter = await createTemporalAdapter({
      address: env.temporal.address,
      namespace: env.temporal.namespace,
      databaseUrl: env.db.url,
      worldUrl: env.world.url,
      bundlePath: inject('workflowBundle'),
      workerEntry,
      uiUrl: null,
    });
    return runHazardsThroughAdapter(() => ({
      adapter,
      worldUrl: env.world.url,
      request: cellRequest(env.world.url),
      boundMs: 120_000,
    }))(scenarios);
  },
  teardown: async () => {
    await adapter?.close();
    await env?.stop();
  },
});
