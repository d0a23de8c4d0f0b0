import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type PostgresHandle } from '@vendor-review/testbed';
import type { World, WorldOptions } from '@vendor-review/world';
import type { RuntimeAdapter } from './adapter.ts';
import { connectionsOf, startServers } from './bring-up.ts';
import type { HazardEnv } from './production/types.ts';
import { cellRequest } from './request.ts';
import type { RuntimeModule, StartedRuntime } from './runtime-module.ts';
import type { ServerConnections, StartedServer } from './servers.ts';

/** A runtime brought up for its own tests, through its module, as `pnpm compare` brings it up. */
export interface RuntimeUnderTest {
  started: StartedRuntime;
  adapter: RuntimeAdapter;
  world: World;
  /** The fresh database its tables are in. */
  databaseUrl: string;
  /** Its own servers as started, by id. */
  servers: ReadonlyMap<string, StartedServer>;
  /** What its module was given to reach them (see `connectionTo`). */
  connections: ServerConnections;
  /** What a conformance suite's runner is given. */
  env(): HazardEnv;
  stop(): Promise<void>;
}

export interface UnderTestOptions {
  /** Names its database. */
  name: string;
  /**
   * The restart hazards' set-up: an embedded PostgreSQL of its own (whatever DATABASE_URL says)
   * and its servers keeping their state on disk, all the harness's own, so a restart loses nothing.
   */
  restartable?: boolean;
  world?: WorldOptions;
  tuning?: Readonly<Record<string, number>>;
}

/**
 * Everything a conformance suite needs to put one runtime through its scenarios, started through
 * the runtime's module: the world, a fresh database (on DATABASE_URL's server, else an embedded
 * PostgreSQL), the servers it declares (always the harness's own: some tests kill them), its
 * tables, workers and adapter. `stop` removes it all.
 */
export async function runtimeUnderTest(module: RuntimeModule, o: UnderTestOptions): Promise<RuntimeUnderTest> {
  const dataDir = o.restartable ? await mkdtemp(join(tmpdir(), 'vendor-review-under-test-')) : undefined;
  const servers = await startServers({
    modules: [module],
    env: process.env,
    log: () => undefined,
    ...(o.world ? { world: o.world } : {}),
    ...(o.restartable ? { postgresEnv: {} } : {}),
    servers: { own: true, ...(dataDir ? { dataDir } : {}) },
  });
  const stopServers = async () => {
    for (const s of [...servers.stops].reverse()) await s.stop().catch(() => undefined);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  let started: StartedRuntime | undefined;
  try {
    // Its own server is the restart hazard's to restart; a shared one gets a database per test file.
    const db = o.restartable ? null : await freshDatabase(servers.postgres.url, `${module.info.name}_${o.name}`);
    const databaseUrl = db?.url ?? servers.postgres.url;
    const connections = connectionsOf(servers.servers);
    started = await module.start({
      worldUrl: servers.world.url,
      databaseUrl,
      servers: connections,
      ...(o.tuning ? { tuning: o.tuning } : {}),
    });
    const { adapter } = started;
    const infra = o.restartable ? restartInfra(servers.postgres, servers.servers) : undefined;
    return {
      started,
      adapter,
      world: servers.world,
      databaseUrl,
      servers: servers.servers,
      connections,
      env: () => ({
        adapter,
        worldUrl: servers.world.url,
        request: cellRequest(servers.world.url),
        boundMs: 120_000,
        ...(infra ? { infra } : {}),
      }),
      async stop() {
        await adapter.close().catch(() => undefined);
        await db?.drop().catch(() => undefined);
        await stopServers();
      },
    };
  } catch (err) {
    await started?.adapter.close().catch(() => undefined);
    await stopServers();
    throw err;
  }
}

/** The servers a restart hazard may restart, as started. */
export function restartInfra(
  postgres: PostgresHandle,
  servers: ReadonlyMap<string, StartedServer>,
): NonNullable<HazardEnv['infra']> {
  return { postgres, servers: Object.fromEntries(servers) };
}
