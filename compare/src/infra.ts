import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  killAllWorkers,
  maskDatabaseUrl,
  startPostgres,
  startTemporal,
  type PostgresHandle,
  type TemporalHandle,
} from '@vendor-review/testbed';
import type { HazardInfra, RuntimeEnv, RuntimeModule } from '@vendor-review/conformance';
import { DEFAULT_MODEL, priceOf, startWorld, type World } from '@vendor-review/world';
import { openInvocationDatabase, type InvocationDatabase } from './database-runs.ts';
import { runtimeModules, type StartedRuntime } from './runtimes.ts';

/**
 * Zero-config bring-up: the world, PostgreSQL (embedded unless DATABASE_URL), Temporal (a dev
 * server from the CLI unless TEMPORAL_ADDRESS) when a selected runtime needs it, then each
 * runtime (its tables, its prebuilt worker bundles) and its adapter. Teardown runs at the end, on
 * Ctrl-C and on failure, and stops only what was started here: a user's own PostgreSQL and
 * Temporal keep their data.
 */
export interface Infra {
  worldUrl: string;
  databaseUrl: string;
  postgresKind: 'embedded' | 'external';
  temporal:
    | (Pick<TemporalHandle, 'address' | 'namespace' | 'kind' | 'connection' | 'workerEnv' | 'source'> & {
        uiUrl: string | null;
        version: string | null;
      })
    | null;
  runtimes: Map<string, StartedRuntime>;
  /** The servers as started, for the hazards that restart them: `restart` only on those started here. */
  servers: HazardInfra;
  /**
   * Servers of their own for the hazards that restart one (InfraOptions.restartServers), and every
   * runtime started on them; null when not asked for.
   */
  restarting: {
    runtimes: Map<string, StartedRuntime>;
    servers: HazardInfra;
    /** Which servers are theirs, in words; null when they are the shared ones. */
    described: string | null;
  } | null;
  describe(): {
    world: string;
    model: string;
    postgres: string;
    temporal: string;
    temporalUi: string | null;
    restartHazards: string | null;
    built: string[];
  };
  teardown(): Promise<void>;
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
   * cluster where ours is embedded, a dev server on a database file where ours is a CLI dev server.
   * They then run beside everything else instead of alone at the end, and the shared dev server
   * keeps its state in memory (as `temporal server start-dev` does by default). Without it the
   * shared dev server keeps its state in a file, so that restarts of it (chaos) lose nothing.
   */
  restartServers?: boolean;
}

/** The servers every tool's runs need: the world, PostgreSQL, and Temporal when a runtime needs it. */
export interface Servers {
  world: World;
  postgres: PostgresHandle;
  temporal: TemporalHandle | null;
  /** What was started, in order, each with its name in words: stopped last first. */
  stops: { what: string; stop: () => Promise<void> }[];
}

export interface ServerOptions {
  /** The runtimes the servers are for: Temporal is started only when one of them needs it. */
  modules: readonly RuntimeModule[];
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  world?: Parameters<typeof startWorld>[0];
  /** How a Temporal is started (a file for its state, a UI); the fallback comes from the runtime that needs it. */
  temporal?: Omit<NonNullable<Parameters<typeof startTemporal>[0]>, 'log' | 'sdkFallback'>;
}

/**
 * The one bring-up of the servers, for `pnpm compare`, chaos and bench (startInfra) and the lab's
 * daemon alike. Started at once; when one fails, whatever did start is stopped and the first
 * failure is thrown.
 */
export async function startServers(o: ServerOptions): Promise<Servers> {
  const temporalNeed = o.modules.find((m) => m.needs.temporal)?.needs.temporal;
  const settled = await Promise.allSettled([
    startWorld(o.world ?? {}),
    startPostgres({ env: o.env, log: o.log }),
    temporalNeed
      ? startTemporal({
          env: o.env,
          ...o.temporal,
          log: o.log,
          ...(temporalNeed.sdkFallback ? { sdkFallback: temporalNeed.sdkFallback } : {}),
        })
      : Promise.resolve(null),
  ]);
  const [worldR, pgR, temporalR] = settled;
  const stops: Servers['stops'] = [];
  if (worldR.status === 'fulfilled') stops.push({ what: 'the world', stop: () => worldR.value.stop() });
  if (pgR.status === 'fulfilled') stops.push({ what: 'PostgreSQL', stop: () => pgR.value.stop() });
  if (temporalR.status === 'fulfilled' && temporalR.value) {
    const t = temporalR.value;
    stops.push({ what: 'the Temporal server', stop: () => t.stop() });
  }
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    for (const s of stops.reverse()) await s.stop().catch(() => undefined);
    throw failed.reason;
  }
  return {
    world: (worldR as PromiseFulfilledResult<World>).value,
    postgres: (pgR as PromiseFulfilledResult<PostgresHandle>).value,
    temporal: (temporalR as PromiseFulfilledResult<TemporalHandle | null>).value,
    stops,
  };
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

/** A Temporal server as a runtime's `start` is given it. */
function temporalEnvOf(t: TemporalHandle, uiUrl: string | null): NonNullable<RuntimeEnv['temporal']> {
  return { address: t.address, namespace: t.namespace, connection: t.connection, workerEnv: t.workerEnv, uiUrl };
}

/** The servers a hazard may restart, as started. */
function hazardInfra(postgres: PostgresHandle, temporal: TemporalHandle | null): HazardInfra {
  return { postgres, ...(temporal ? { temporal } : {}) };
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
 * their own where ours is embedded, a dev server on a database file where ours is a CLI dev
 * server, and every module of the production suite started on them. A server that is the user's
 * is theirs too: the hazard skips what it may not restart.
 */
async function startRestartServers(o: {
  modules: readonly RuntimeModule[];
  /** The shared servers and the runtimes started on them. */
  shared: { runtimes: Map<string, StartedRuntime>; postgres: PostgresHandle; temporal: TemporalHandle | null };
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  worldUrl: string;
  databaseUrl: string;
  dbFilename?: string;
  stops: (() => Promise<void>)[];
}): Promise<NonNullable<Infra['restarting']>> {
  const log = (line: string) => o.log(`restart hazards: ${line}`);
  const shared = o.shared;
  const [pg, temporal] = await Promise.all([
    shared.postgres.kind === 'embedded' ? startPostgres({ env: {}, log }) : null,
    shared.temporal?.kind === 'cli' && o.dbFilename
      ? startTemporal({ env: o.env, dbFilename: o.dbFilename, namespace: shared.temporal.namespace, log })
      : null,
  ]);
  if (!pg && !temporal)
    return { runtimes: shared.runtimes, servers: hazardInfra(shared.postgres, shared.temporal), described: null };
  if (pg) o.stops.push(() => pg.stop());
  if (temporal) o.stops.push(() => temporal.stop());
  const runtimes = new Map<string, StartedRuntime>();
  o.stops.push(async () => {
    await Promise.all([...runtimes.values()].map((r) => r.adapter.close().catch(() => undefined)));
  });
  const t = temporal ?? shared.temporal;
  await startModules(
    o.modules.filter((m) => !m.info.suites || m.info.suites.includes('production')),
    { worldUrl: o.worldUrl, databaseUrl: pg?.url ?? o.databaseUrl, temporal: t ? temporalEnvOf(t, null) : null },
    runtimes,
  );
  const described = [
    pg ? `embedded PostgreSQL ${maskDatabaseUrl(pg.url)}` : null,
    temporal ? `dev server (Temporal CLI) ${temporal.address}, state in ${temporal.dbFilename}` : null,
  ]
    .filter(Boolean)
    .join('; ');
  return { runtimes, servers: hazardInfra(pg ?? shared.postgres, t), described };
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
    const withTemporal = modules.some((m) => m.needs.temporal);
    // A dev server restarted under the runs keeps its state in a file, so the restart loses nothing:
    // the shared one, unless the restart hazards get servers of their own. The file goes with the
    // rest at teardown (pushed first: removed after the server stopped).
    const temporalDir = withTemporal ? await mkdtemp(join(tmpdir(), 'vendor-review-temporal-')) : null;
    if (temporalDir) stops.push(() => rm(temporalDir, { recursive: true, force: true }));
    const dbFilename = (name: string) => (temporalDir ? { dbFilename: join(temporalDir, name) } : {});
    const servers = await startServers({
      modules,
      env,
      log,
      world: o.modelUpstream
        ? { modelUpstream: { ...o.modelUpstream, ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}) } }
        : {},
      ...(o.restartServers ? {} : { temporal: dbFilename('temporal.db') }),
    });
    stops.push(...servers.stops.map((s) => s.stop));
    const { world, postgres: pg, temporal: t } = servers;
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

    // A user's own Temporal keeps its runs, so link them; a dev server we started is gone afterwards.
    const uiUrl = t?.kind === 'external' ? env.TEMPORAL_UI_URL?.trim() || 'http://localhost:8080' : null;
    const temporal = t
      ? {
          ...temporalEnvOf(t, uiUrl),
          kind: t.kind,
          source: t.source,
          // The server's own answer (GetSystemInfo), for a user's server as for ours.
          version: t.serverVersion,
        }
      : null;
    await startModules(
      modules,
      {
        worldUrl: world.url,
        databaseUrl,
        temporal,
        ...(o.sharedQueue ? { sharedQueue: o.sharedQueue } : {}),
      },
      runtimes,
    );
    // After the shared ones: a module started twice on one database must not migrate it twice at once.
    const restarting = o.restartServers
      ? await startRestartServers({
          modules,
          shared: { runtimes, postgres: pg, temporal: t },
          env,
          log,
          worldUrl: world.url,
          databaseUrl,
          ...dbFilename('restart-hazards.db'),
          stops,
        })
      : null;
    const built = [...runtimes.values()].flatMap((r) => r.built);
    log(`world: ${world.url} · ${built.join(' · ')}`);

    return {
      worldUrl: world.url,
      databaseUrl,
      postgresKind: pg.kind,
      temporal,
      runtimes,
      servers: hazardInfra(pg, t),
      restarting,
      describe: () => ({
        world: `simulated world at ${world.url}`,
        model: describeModel(o.modelUpstream),
        postgres: `${pg.kind === 'embedded' ? 'embedded PostgreSQL' : 'DATABASE_URL'} ${maskDatabaseUrl(pg.url)}${invocation ? `, this run's tables in database ${invocation.name}` : ''}`,
        temporal: t
          ? `${t.kind === 'cli' ? 'dev server (Temporal CLI)' : t.kind === 'external' ? t.source : 'SDK-downloaded dev server'} ${t.address}, namespace ${t.namespace}` +
            `${t.serverVersion ? `, server ${t.serverVersion}` : ''}${t.tls ? ', TLS' : ''}${t.apiKey ? ', API key' : ''}`
          : 'not used',
        temporalUi: uiUrl,
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
