/**
 * The crash conformance suite against the plain runner, the floor with no durability: every crash
 * point in both variants, real worker processes killed with SIGKILL, a new process that starts the
 * job again from its request, real PostgreSQL and the real world. Plain lives in this package, so
 * its catalogue runs here, once, as every other runtime's runs in its own package.
 */
import {
  cellRequest,
  crashCatalogue,
  crashSpec,
  runThroughAdapter,
  type StartedRuntime,
} from '@vendor-review/conformance';
import { freshDatabase, startPostgres, type PostgresHandle } from '@vendor-review/testbed';
import { startWorld, type World } from '@vendor-review/world';
import { PLAIN } from '../src/plain-harness/adapter.ts';
import { runtime } from '../src/plain-harness/module.ts';

let server: PostgresHandle | undefined;
let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
let world: World | undefined;
let started: StartedRuntime | undefined;

crashSpec({
  name: 'plain',
  scenarios: crashCatalogue([PLAIN]),
  run: async (scenarios) => {
    server = await startPostgres({
      env: { DATABASE_URL: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    });
    [world, db] = await Promise.all([startWorld({}), freshDatabase(server.url, 'plain_crash')]);
    const rt = await runtime.start({ worldUrl: world.url, databaseUrl: db.url, servers: {} });
    started = rt;
    return runThroughAdapter(() => ({ adapter: rt.adapter, worldUrl: world!.url, request: cellRequest(world!.url) }))(
      scenarios,
    );
  },
  teardown: async () => {
    await started?.adapter.close();
    await db?.drop();
    await world?.stop();
    await server?.stop();
  },
});
