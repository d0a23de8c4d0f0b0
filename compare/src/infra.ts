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
  describe(): {
    world: string;
    model: string;
    postgres: string;
    temporal: string;
    temporalUi: string | null;
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
    // A dev server we start keeps its state in a file, so the restart hazard can restart it and lose
    // nothing; the file goes with the rest at teardown (pushed first: removed after the server stopped).
    const temporalDir = withTemporal ? await mkdtemp(join(tmpdir(), 'vendor-review-temporal-')) : null;
    if (temporalDir) stops.push(() => rm(temporalDir, { recursive: true, force: true }));
    const servers = await startServers({
      modules,
      env,
      log,
      world: o.modelUpstream
        ? { modelUpstream: { ...o.modelUpstream, ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}) } }
        : {},
      ...(temporalDir ? { temporal: { dbFilename: join(temporalDir, 'temporal.db') } } : {}),
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
          address: t.address,
          namespace: t.namespace,
          kind: t.kind,
          connection: t.connection,
          workerEnv: t.workerEnv,
          source: t.source,
          uiUrl,
          // The server's own answer (GetSystemInfo), for a user's server as for ours.
          version: t.serverVersion,
        }
      : null;
    const started = await Promise.allSettled(
      modules.map((m) =>
        m.start({
          worldUrl: world.url,
          databaseUrl,
          temporal,
          ...(o.sharedQueue ? { sharedQueue: o.sharedQueue } : {}),
        }),
      ),
    );
    started.forEach((s, i) => s.status === 'fulfilled' && runtimes.set(o.runtimes[i]!, s.value));
    const broken = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (broken) throw broken.reason;
    const built = [...runtimes.values()].flatMap((r) => r.built);
    log(`world: ${world.url} · ${built.join(' · ')}`);

    return {
      worldUrl: world.url,
      databaseUrl,
      postgresKind: pg.kind,
      temporal,
      runtimes,
      servers: { postgres: pg, ...(t ? { temporal: t } : {}) },
      describe: () => ({
        world: `simulated world at ${world.url}`,
        model: describeModel(o.modelUpstream),
        postgres: `${pg.kind === 'embedded' ? 'embedded PostgreSQL' : 'DATABASE_URL'} ${maskDatabaseUrl(pg.url)}${invocation ? `, this run's tables in database ${invocation.name}` : ''}`,
        temporal: t
          ? `${t.kind === 'cli' ? 'dev server (Temporal CLI)' : t.kind === 'external' ? t.source : 'SDK-downloaded dev server'} ${t.address}, namespace ${t.namespace}` +
            `${t.serverVersion ? `, server ${t.serverVersion}` : ''}${t.tls ? ', TLS' : ''}${t.apiKey ? ', API key' : ''}`
          : 'not used',
        temporalUi: uiUrl,
        built,
      }),
      teardown,
    };
  } catch (err) {
    await teardown();
    throw err;
  }
}
