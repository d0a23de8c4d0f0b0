import type { RuntimeAdapter } from '@vendor-review/domain';
import { cellRequest } from '@vendor-review/domain/conformance';
import { workerBundle } from '@vendor-review/domain/infra';
import { startWorld, type World } from '@vendor-review/domain/world';
import { createLangGraphAdapter, WORKER_ENTRY } from '../src/index.ts';
import { freshTestDatabase } from './db.ts';

/**
 * What a conformance suite needs to put LangGraph through its scenarios: the world, a fresh
 * database, the adapter with bundled workers. One per e2e file; `stop` removes it all.
 */
export interface LangGraphUnderTest {
  adapter: RuntimeAdapter;
  world: World;
  databaseUrl: string;
  env(): { adapter: RuntimeAdapter; worldUrl: string; request: ReturnType<typeof cellRequest>; boundMs: number };
  stop(): Promise<void>;
}

export async function langGraphUnderTest(name: string): Promise<LangGraphUnderTest> {
  const [world, db, worker] = await Promise.all([startWorld({}), freshTestDatabase(name), workerBundle(WORKER_ENTRY)]);
  const adapter = createLangGraphAdapter({ databaseUrl: db.url, worldUrl: world.url, workerEntry: worker.path });
  return {
    adapter,
    world,
    databaseUrl: db.url,
    env: () => ({ adapter, worldUrl: world.url, request: cellRequest(world.url), boundMs: 120_000 }),
    async stop() {
      await adapter.close();
      await db.drop();
      await world.stop();
    },
  };
}
