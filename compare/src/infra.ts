import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllWorkers, maskDatabaseUrl, startPostgres, type PostgresHandle } from '@vendor-review/testbed';
import {
  connectionsOf,
  restartInfra,
  serversOf,
  startServer,
  startServers,
  type HazardInfra,
  type RuntimeEnv,
  type RuntimeModule,
  type ServerConnections,
  type ServerSpec,
  type StartedServer,
} from '@vendor-review/conformance';
import { DEFAULT_MODEL, priceOf } from '@vendor-review/world';
import { openInvocationDatabase, type InvocationDatabase } from './database-runs.ts';
import { runtimeModules, type StartedRuntime } from './runtimes.ts';

/**
 * Bringing the infrastructure up; running a cell on it is run-cell.ts. Zero-config bring-up: the
 * world, PostgreSQL (embedded unless DATABASE_URL), the servers the selected runtimes declare
 * (each the user's own where the environment names one, else one of ours), then each runtime (its
 * tables, its prebuilt worker bundles) and its adapter. Teardown runs at the end, on Ctrl-C and on
 * failure, and stops only what was started here: a user's own servers keep their data.
 */
export interface Infra {
  worldUrl: string;
  databaseUrl: string;
  postgresKind: 'embedded' | 'external';
  /** The runtimes' own servers as started, by id, with what each says of itself. */
  servers: ReadonlyMap<string, { spec: ServerSpec; server: StartedServer }>;
  /** What each runtime's `start` was given to reach them. */
  connections: ServerConnections;
  runtimes: Map<string, StartedRuntime>;
  /** The servers as started, for the hazards that restart them: `restart` only on those started here. */
  hazardInfra: HazardInfra;
  /**
   * Servers of their own for the hazards that restart one (InfraOptions.restartServers), and every
   * runtime started on them; null when not asked for.
   */
  restarting: {
    runtimes: Map<string, StartedRuntime>;
    hazardInfra: HazardInfra;
    /** Which servers are theirs, in words; null when they are the shared ones. */
    described: string | null;
  } | null;
  describe(): InfraDescription;
  teardown(): Promise<void>;
}

export interface InfraDescription {
  world: string;
  model: string;
  postgres: string;
  /** Each runtime server, as it describes itself; where its UI links the runs, if it does. */
  servers: { title: string; description: string; ui: string | null }[];
  restartHazards: string | null;
  built: string[];
}

export interface InfraOptions {
  runtimes: readonly string[];
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Recorded beside this invocation's database in a user's PostgreSQL (what ran). */
  command?: string;
  /** Model calls go on to this provider (the key is read from OPENAI_API_KEY). */
  modelUpstream?: { baseUrl: string; model: string };
  /** A pool of workers serving many runs (chaos) names the queue each configuration's runs share. */
  sharedQueue?: RuntimeEnv['sharedQueue'];
  /**
   * The hazards that restart a server get servers of their own (`restarting`): a second PostgreSQL
   * cluster where ours is embedded, and (`every`: the runtime servers are restarted too) a second of
   * each runtime server of ours, keeping its state on disk. They then run beside everything else
   * instead of alone at the end, and the shared servers keep their state as they do by default (a
   * dev server in memory). Without it the shared servers keep their state on disk, so that restarts
   * of them (chaos) lose nothing.
   */
  restartServers?: 'postgres' | 'every';
}

/** Each runtime server's version as it reports it, by its label ("Temporal server"). */
export function serverVersions(infra: Pick<Infra, 'servers'>): Record<string, string | null> {
  return Object.fromEntries([...infra.servers.values()].map(({ spec, server }) => [spec.label, server.version]));
}

/** The model behind the world's endpoint, in words, with the price it is billed at. */
export function describeModel(upstream: { baseUrl: string; model: string } | undefined): string {
  if (!upstream) return `simulated ${DEFAULT_MODEL}, priced by the world`;
  const price = priceOf(upstream.model);
  return `${upstream.model} at ${upstream.baseUrl} (forwarded and counted by the world; ${
    price
      ? `priced $${price.inputPerMTok}/$${price.outputPerMTok} per 1M input/output tokens`
      : 'price unknown: not in the price table'
  })`;
}

/**
 * Every module started on the given servers, each put in `into` as it starts (a teardown closes
 * them); the first failure is thrown once all have settled.
 */
async function startModules(
  modules: readonly RuntimeModule[],
  env: RuntimeEnv,
  into: Map<string, StartedRuntime>,
): Promise<void> {
  const started = await Promise.allSettled(modules.map((m) => m.start(env)));
  started.forEach((s, i) => s.status === 'fulfilled' && into.set(modules[i]!.info.name, s.value));
  const broken = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (broken) throw broken.reason;
}

/**
 * Servers for the hazards that restart one (InfraOptions.restartServers): a PostgreSQL cluster of
 * their own where ours is embedded, a second of each runtime server that is ours, keeping its state
 * in `dataDir`, and every module of the production suite started on them. A server that is the
 * user's is theirs too: the hazard skips what it may not restart.
 */
async function startRestartServers(o: {
  modules: readonly RuntimeModule[];
  /** The shared servers and the runtimes started on them. */
  shared: {
    runtimes: Map<string, StartedRuntime>;
    postgres: PostgresHandle;
    servers: ReadonlyMap<string, StartedServer>;
  };
  /** Which servers the hazards restart: PostgreSQL only, or the runtime servers too. */
  restarts: 'postgres' | 'every';
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  worldUrl: string;
  databaseUrl: string;
  dataDir: string;
  stops: (() => Promise<void>)[];
}): Promise<NonNullable<Infra['restarting']>> {
  const log = (line: string) => o.log(`restart hazards: ${line}`);
  const { shared } = o;
  // A runtime server nobody restarts is shared: a second one would only cost its CPU.
  const specs = o.restarts === 'every' ? serversOf(o.modules).filter((spec) => shared.servers.get(spec.id)?.owned) : [];
  const [pg, ...own] = await Promise.all([
    shared.postgres.kind === 'embedded' ? startPostgres({ env: {}, log }) : null,
    ...specs.map((spec) => startServer(spec, { env: o.env, log, own: true, dataDir: join(o.dataDir, spec.id) })),
  ]);
  if (!pg && own.length === 0)
    return { runtimes: shared.runtimes, hazardInfra: restartInfra(shared.postgres, shared.servers), described: null };
  if (pg) o.stops.push(() => pg.stop());
  for (const s of own) o.stops.push(() => s.stop());
  const servers = new Map(shared.servers);
  specs.forEach((spec, i) => servers.set(spec.id, own[i]!));
  const runtimes = new Map<string, StartedRuntime>();
  o.stops.push(async () => {
    await Promise.all([...runtimes.values()].map((r) => r.adapter.close().catch(() => undefined)));
  });
  await startModules(
    o.modules.filter((m) => !m.info.suites || m.info.suites.includes('production')),
    { worldUrl: o.worldUrl, databaseUrl: pg?.url ?? o.databaseUrl, servers: connectionsOf(servers) },
    runtimes,
  );
  const described = [pg ? `embedded PostgreSQL ${maskDatabaseUrl(pg.url)}` : null, ...own.map((s) => s.description)]
    .filter(Boolean)
    .join('; ');
  return { runtimes, hazardInfra: restartInfra(pg ?? shared.postgres, servers), described };
}

export async function startInfra(o: InfraOptions): Promise<Infra> {
  const env = o.env ?? process.env;
  const log = o.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const stops: (() => Promise<void>)[] = [];
  const runtimes = new Map<string, StartedRuntime>();
  let tornDown = false;

  const teardown = async () => {
    if (tornDown) return;
    tornDown = true;
    killAllWorkers();
    await Promise.all([...runtimes.values()].map((r) => r.adapter.close().catch(() => undefined)));
    for (const stop of stops.reverse())
      await stop().catch((err) => log(`teardown: ${err instanceof Error ? err.message : String(err)}`));
  };

  try {
    const modules = await runtimeModules(o.runtimes);
    // A server restarted under the runs keeps its state on disk, so the restart loses nothing: the
    // shared ones, unless the restart hazards get servers of their own (a PostgreSQL of their own
    // even where no runtime has a server). The folder goes with the rest at teardown (pushed first:
    // removed after the servers stopped).
    const dataDir =
      serversOf(modules).length || o.restartServers ? await mkdtemp(join(tmpdir(), 'vendor-review-servers-')) : null;
    if (dataDir) stops.push(() => rm(dataDir, { recursive: true, force: true }));
    const servers = await startServers({
      modules,
      env,
      log,
      world: o.modelUpstream
        ? { modelUpstream: { ...o.modelUpstream, ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}) } }
        : {},
      ...(dataDir && !o.restartServers ? { servers: { dataDir: join(dataDir, 'shared') } } : {}),
    });
    stops.push(...servers.stops.map((s) => s.stop));
    const { world, postgres: pg } = servers;
    // A user's PostgreSQL: everything this invocation creates goes into a database of its own,
    // recorded so that `pnpm compare --clean` can remove it (and nothing else) later.
    let invocation: InvocationDatabase | null = null;
    if (pg.kind === 'external') {
      invocation = await openInvocationDatabase(pg.url, o.command ?? 'pnpm compare');
      const done = invocation;
      stops.push(() => done.finish());
      log(
        `postgres: this run's tables go to database ${invocation.name} (kept for inspection; pnpm compare --clean removes it)`,
      );
    }
    const databaseUrl = invocation?.url ?? pg.url;
    const connections = connectionsOf(servers.servers);
    await startModules(
      modules,
      {
        worldUrl: world.url,
        databaseUrl,
        servers: connections,
        ...(o.sharedQueue ? { sharedQueue: o.sharedQueue } : {}),
      },
      runtimes,
    );
    // After the shared ones: a module started twice on one database must not migrate it twice at once.
    const restarting =
      o.restartServers && dataDir
        ? await startRestartServers({
            modules,
            restarts: o.restartServers,
            shared: { runtimes, postgres: pg, servers: servers.servers },
            env,
            log,
            worldUrl: world.url,
            databaseUrl,
            dataDir: join(dataDir, 'restart-hazards'),
            stops,
          })
        : null;
    const built = [...runtimes.values()].flatMap((r) => r.built);
    log(`world: ${world.url} · ${built.join(' · ')}`);
    const specs = new Map(serversOf(modules).map((spec) => [spec.id, spec]));
    const withSpecs = new Map([...servers.servers].map(([id, server]) => [id, { spec: specs.get(id)!, server }]));

    return {
      worldUrl: world.url,
      databaseUrl,
      postgresKind: pg.kind,
      servers: withSpecs,
      connections,
      runtimes,
      hazardInfra: restartInfra(pg, servers.servers),
      restarting,
      describe: () => ({
        world: `simulated world at ${world.url}`,
        model: describeModel(o.modelUpstream),
        postgres: `${pg.kind === 'embedded' ? 'embedded PostgreSQL' : 'DATABASE_URL'} ${maskDatabaseUrl(pg.url)}${invocation ? `, this run's tables in database ${invocation.name}` : ''}`,
        servers: [...withSpecs.values()].map(({ spec, server }) => ({
          title: spec.label,
          description: server.description,
          ui: server.uiUrl,
        })),
        restartHazards: restarting?.described ?? null,
        built,
      }),
      teardown,
    };
  } catch (err) {
    await teardown();
    throw err;
  }
}
