import type { RuntimeAdapter } from '@vendor-review/pipeline';
import { cellRequest, type HazardInfra } from '@vendor-review/conformance';
import { startPostgres, workerBundle } from '@vendor-review/testbed';
import { startWorld, type World } from '@vendor-review/world';
import { createFunctionalAdapter, createLangGraphAdapter, WORKER_ENTRY } from '../harness/index.ts';
import { setupDatabase } from '../src/index.ts';
import { freshTestDatabase } from './db.ts';

/**
 * What a conformance suite needs to put LangGraph through its scenarios: the world, a fresh
 * database, the adapter with bundled workers. One per e2e file; `stop` removes it all.
 */
export interface LangGraphUnderTest {
  adapter: RuntimeAdapter;
  world: World;
  databaseUrl: string;
  env(): {
    adapter: RuntimeAdapter;
    worldUrl: string;
    request: ReturnType<typeof cellRequest>;
    boundMs: number;
    infra?: HazardInfra;
  };
  stop(): Promise<void>;
}

/**
 * `ownPostgres`: an embedded PostgreSQL of the suite's own instead of a database on the shared
 * server, so the restart hazard has a server it may restart (whatever DATABASE_URL says).
 */
export async function langGraphUnderTest(
  name: string,
  o: { ownPostgres?: boolean; functional?: boolean } = {},
): Promise<LangGraphUnderTest> {
  const own = o.ownPostgres ? await startPostgres({ env: {} }) : null;
  const [world, db, worker] = await Promise.all([
    startWorld({}),
    own ? setupDatabase(own.url).then(() => ({ url: own.url, drop: () => own.stop() })) : freshTestDatabase(name),
    workerBundle(WORKER_ENTRY),
  ]);
  const infra: HazardInfra | undefined = own ? { postgres: own } : undefined;
  // `functional`: the same harness over the Functional API's runs (src/functional/).
  const create = o.functional ? createFunctionalAdapter : createLangGraphAdapter;
  const adapter = create({ databaseUrl: db.url, worldUrl: world.url, workerEntry: worker.path });
  return {
    adapter,
    world,
    databaseUrl: db.url,
    env: () => ({
      adapter,
      worldUrl: world.url,
      request: cellRequest(world.url),
      boundMs: 120_000,
      ...(infra ? { infra } : {}),
    }),
    async stop() {
      await adapter.close();
      await db.drop();
      await world.stop();
    },
  };
}
