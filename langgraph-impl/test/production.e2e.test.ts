/**
 * The production conformance suite against LangGraph: every hazard in both variants, with real
 * worker processes, real PostgreSQL and the real world; verdicts judged from the ledger and the
 * durable records.
 */
import {
  cellRequest,
  productionCatalogue,
  productionSpec,
  runHazardsThroughAdapter,
} from '@vendor-review/domain/conformance';
import { workerBundle } from '@vendor-review/domain/infra';
import { startWorld, type World } from '@vendor-review/domain/world';
import type { RuntimeAdapter } from '@vendor-review/domain';
import { createLangGraphAdapter, LANGGRAPH, WORKER_ENTRY } from '../src/index.ts';
import { freshTestDatabase } from './db.ts';

let world: World;
let db: { url: string; drop(): Promise<void> };
let adapter: RuntimeAdapter;

productionSpec({
  name: 'LangGraph',
  scenarios: productionCatalogue([LANGGRAPH]),
  run: async (scenarios) => {
    [world, db] = await Promise.all([startWorld({}), freshTestDatabase('hazards')]);
    const { path: workerEntry } = await workerBundle(WORKER_ENTRY);
    adapter = createLangGraphAdapter({ databaseUrl: db.url, worldUrl: world.url, workerEntry });
    return runHazardsThroughAdapter(() => ({
      adapter,
      worldUrl: world.url,
      request: cellRequest(world.url),
      boundMs: 120_000,
    }))(scenarios);
  },
  teardown: async () => {
    await adapter?.close();
    await db?.drop();
    await world?.stop();
  },
});
