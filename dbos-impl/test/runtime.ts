import type { RuntimeAdapter } from '@vendor-review/pipeline';
import { cellRequest, type HazardInfra } from '@vendor-review/conformance';
import { freshDatabase, startPostgres, workerBundle, type PostgresHandle } from '@vendor-review/testbed';
import { startWorld, type World } from '@vendor-review/world';
import { createDbosAdapter, OPTIONAL_TELEMETRY, WORKER_ENTRY } from '../harness/index.ts';
import { setupDatabase } from '../src/index.ts';

/**
 * What a conformance suite needs to put DBOS through its scenarios: the world, a fresh database
 * (DATABASE_URL's server, else an embedded PostgreSQL), the adapter with bundled workers.
 */
export interface DbosUnderTest {
  adapter: RuntimeAdapter;
  world: World;
  databaseUrl: string;
  workerEntry: string;
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
 * server, so the restart hazard has a server it may restart.
 */
export async function dbosUnderTest(name: string, o: { ownPostgres?: boolean } = {}): Promise<DbosUnderTest> {
  const server: PostgresHandle = await startPostgres({
    env: o.ownPostgres
      ? {}
      : { DATABASE_URL: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  });
  const infra: HazardInfra | undefined = o.ownPostgres ? { postgres: server } : undefined;
  const [world, db, worker] = await Promise.all([
    startWorld({}),
    freshDatabase(server.url, `dbos_${name}`),
    workerBundle(WORKER_ENTRY, OPTIONAL_TELEMETRY),
  ]);
  await setupDatabase(db.url);
  const adapter = await createDbosAdapter({ databaseUrl: db.url, worldUrl: world.url, workerEntry: worker.path });
  return {
    adapter,
    world,
    databaseUrl: db.url,
    workerEntry: worker.path,
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
      await server.stop();
    },
  };
}
