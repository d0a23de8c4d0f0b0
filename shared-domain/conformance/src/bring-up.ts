import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startPostgres, type InfraLog, type PostgresHandle } from '@vendor-review/testbed';
import { startWorld, type World, type WorldOptions } from '@vendor-review/world';
import type { RuntimeModule } from './runtime-module.ts';
import {
  serversOf,
  type ServerConnections,
  type ServerSpec,
  type ServerStartOptions,
  type StartedServer,
} from './servers.ts';

/** The servers every tool's runs need: the world, PostgreSQL, and each server the runtimes declare. */
export interface Servers {
  world: World;
  postgres: PostgresHandle;
  /** The runtimes' own servers, by id. */
  servers: ReadonlyMap<string, StartedServer>;
  /** What was started, in order, each with its name in words: stopped last first. */
  stops: { what: string; stop: () => Promise<void> }[];
}

export interface ServerOptions {
  /** The runtimes the servers are for: a server is started only when one of them declares it. */
  modules: readonly RuntimeModule[];
  /** Where the user's settings are read (DATABASE_URL, each server's own). */
  env: NodeJS.ProcessEnv;
  log: InfraLog;
  world?: WorldOptions;
  /** Where PostgreSQL's setting is read, when not `env` (`{}`: always an embedded one of our own). */
  postgresEnv?: NodeJS.ProcessEnv;
  /**
   * How the runtimes' servers start. `dataDir`: each keeps its state in a folder of its own there
   * (so that a restart loses nothing); absent, as its default (a dev server in memory).
   */
  servers?: Omit<ServerStartOptions, 'env' | 'log'>;
}

/**
 * The one bring-up of the servers, for `pnpm compare`, chaos, bench, the lab's daemon and each
 * runtime's own tests. Started at once; when one fails, whatever did start is stopped and the
 * first failure is thrown.
 */
export async function startServers(o: ServerOptions): Promise<Servers> {
  const specs = serversOf(o.modules);
  const settled = await Promise.allSettled([
    startWorld(o.world ?? {}),
    startPostgres({ env: o.postgresEnv ?? o.env, log: o.log }),
    ...specs.map((spec) => {
      const { dataDir, ...rest } = o.servers ?? {};
      return startServer(spec, {
        env: o.env,
        log: o.log,
        ...rest,
        ...(dataDir ? { dataDir: join(dataDir, spec.id) } : {}),
      });
    }),
  ]);
  const [worldR, pgR, ...serverRs] = settled;
  const stops: Servers['stops'] = [];
  if (worldR.status === 'fulfilled') stops.push({ what: 'the world', stop: () => worldR.value.stop() });
  if (pgR.status === 'fulfilled') stops.push({ what: 'PostgreSQL', stop: () => pgR.value.stop() });
  const servers = new Map<string, StartedServer>();
  serverRs.forEach((r, i) => {
    if (r.status !== 'fulfilled') return;
    const server = r.value as StartedServer;
    servers.set(specs[i]!.id, server);
    stops.push({ what: specs[i]!.title, stop: () => server.stop() });
  });
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    for (const s of stops.reverse()) await s.stop().catch(() => undefined);
    throw failed.reason;
  }
  return {
    world: (worldR as PromiseFulfilledResult<World>).value,
    postgres: (pgR as PromiseFulfilledResult<PostgresHandle>).value,
    servers,
    stops,
  };
}

/** One server as its spec starts it, its data directory made first (a spec is given one that exists). */
export async function startServer<C>(spec: ServerSpec<C>, o: ServerStartOptions): Promise<StartedServer<C>> {
  if (o.dataDir) await mkdir(o.dataDir, { recursive: true });
  const started = performance.now();
  const server = await spec.start(o);
  server.startMs = performance.now() - started;
  return server;
}

/** What a runtime's `start` is given of the servers: each one's connection, by id. */
export function connectionsOf(servers: ReadonlyMap<string, StartedServer>): ServerConnections {
  return Object.fromEntries([...servers].map(([id, s]) => [id, s.connection]));
}
