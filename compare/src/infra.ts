import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  maskDatabaseUrl,
  resolveTemporalCli,
  startPostgres,
  startTemporal,
  type PostgresHandle,
  type TemporalHandle,
} from '@vendor-review/domain/infra';
import { startWorld, type World } from '@vendor-review/domain/world';
import * as langgraph from '@vendor-review/langgraph';
import * as temporal from '@vendor-review/temporal';
import { workerBundle, workflowBundle, type Built } from './bundles.ts';
import { killAllWorkers } from './worker-process.ts';

/**
 * Zero-config bring-up: the world, PostgreSQL (embedded unless DATABASE_URL), Temporal (a dev
 * server from the CLI unless TEMPORAL_ADDRESS) and the workflow bundle, built once, all started
 * concurrently. Teardown runs at the end, on Ctrl-C and on failure, and stops only what was
 * started here: a user's own PostgreSQL and Temporal keep their data.
 */
export interface Infra {
  worldUrl: string;
  databaseUrl: string;
  postgresKind: 'embedded' | 'external';
  temporal: {
    address: string;
    namespace: string;
    kind: TemporalHandle['kind'];
    uiUrl: string | null;
    version: string | null;
  } | null;
  bundle: Built | null;
  /** Each runtime's worker entry as one prebuilt ES module (null: that runtime is not in the run). */
  workers: { langgraph: Built | null; temporal: Built | null };
  describe(): {
    world: string;
    postgres: string;
    temporal: string;
    temporalUi: string | null;
    workflowBundleMs: number | null;
  };
  teardown(): Promise<void>;
}

export interface InfraOptions {
  needTemporal: boolean;
  needLangGraph: boolean;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

const run = promisify(execFile);

async function cliVersion(env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const cli = resolveTemporalCli(env);
    if (!cli) return null;
    const { stdout } = await run(cli, ['--version'], { timeout: 10_000 });
    return stdout.trim().replace(/^temporal version\s*/, '');
  } catch {
    return null;
  }
}

export async function startInfra(o: InfraOptions): Promise<Infra> {
  const env = o.env ?? process.env;
  const log = o.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const stops: (() => Promise<void>)[] = [];
  let tornDown = false;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vendor-review-compare-'));
  const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
  // Ctrl-C ends the process without the async teardown; the folder goes anyway.
  process.once('exit', removeScratch);
  stops.push(async () => removeScratch());

  const teardown = async () => {
    if (tornDown) return;
    tornDown = true;
    killAllWorkers();
    for (const stop of stops.reverse())
      await stop().catch((err) => log(`teardown: ${err instanceof Error ? err.message : String(err)}`));
  };

  try {
    const worldP = startWorld();
    const pgP = startPostgres({ env, log });
    const temporalP = o.needTemporal
      ? startTemporal({ env, log, sdkFallback: ({ namespace }) => (void namespace, temporal.sdkDownloadedTemporal()) })
      : Promise.resolve(null);
    const bundleP = o.needTemporal ? workflowBundle(scratch, log) : Promise.resolve(null);
    const workersP = Promise.all([
      o.needLangGraph ? workerBundle(langgraph.WORKER_ENTRY, []) : null,
      // The SDK loads a native bridge and its own sandbox code from its package: leave it external.
      o.needTemporal ? workerBundle(temporal.WORKER_ENTRY, ['@temporalio/*']) : null,
    ]);
    // Collect every start, so whatever did start is stopped even when a sibling failed.
    const settled = await Promise.allSettled([worldP, pgP, temporalP, bundleP, workersP]);
    const [worldR, pgR, temporalR, bundleR, workersR] = settled;
    if (worldR.status === 'fulfilled') stops.push(() => (worldR.value as World).stop());
    if (pgR.status === 'fulfilled') stops.push(() => (pgR.value as PostgresHandle).stop());
    if (temporalR.status === 'fulfilled' && temporalR.value)
      stops.push(() => (temporalR.value as TemporalHandle).stop());
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;

    const world = (worldR as PromiseFulfilledResult<World>).value;
    const pg = (pgR as PromiseFulfilledResult<PostgresHandle>).value;
    const t = (temporalR as PromiseFulfilledResult<TemporalHandle | null>).value;
    const bundle = (bundleR as PromiseFulfilledResult<Built | null>).value;
    const [lgWorker, tmWorker] = (workersR as PromiseFulfilledResult<[Built | null, Built | null]>).value;
    const built = (what: string, b: Built | null) =>
      b ? ` · ${what} ${b.cached ? 'from cache' : `built in ${(b.ms / 1000).toFixed(1)} s`}` : '';
    log(
      `world: ${world.url}${built('workflow bundle', bundle)}${built('LangGraph worker', lgWorker)}${built('Temporal worker', tmWorker)}`,
    );

    await Promise.all([
      o.needLangGraph ? langgraph.setupDatabase(pg.url) : null,
      o.needTemporal ? temporal.setupDatabase(pg.url) : null,
    ]);

    // A user's own Temporal keeps its runs, so link them; a dev server we started is gone afterwards.
    const uiUrl = t
      ? t.kind === 'external'
        ? env.TEMPORAL_UI_URL?.trim() || 'http://localhost:8080'
        : (t.uiUrl ?? null)
      : null;
    const version = t ? (t.kind === 'cli' ? await cliVersion(env) : null) : null;
    return {
      worldUrl: world.url,
      databaseUrl: pg.url,
      postgresKind: pg.kind,
      temporal: t
        ? {
            address: t.address,
            namespace: t.namespace,
            kind: t.kind,
            uiUrl: t.kind === 'external' ? uiUrl : null,
            version,
          }
        : null,
      bundle,
      workers: { langgraph: lgWorker, temporal: tmWorker },
      describe: () => ({
        world: `simulated world at ${world.url}`,
        postgres: `${pg.kind === 'embedded' ? 'embedded PostgreSQL' : 'DATABASE_URL'} ${maskDatabaseUrl(pg.url)}`,
        temporal: t
          ? `${t.kind === 'cli' ? 'dev server (Temporal CLI)' : t.kind === 'external' ? 'TEMPORAL_ADDRESS' : 'SDK-downloaded dev server'} ${t.address}, namespace ${t.namespace}`
          : 'not used',
        temporalUi: t?.kind === 'external' ? uiUrl : null,
        workflowBundleMs: bundle?.ms ?? null,
      }),
      teardown,
    };
  } catch (err) {
    await teardown();
    throw err;
  }
}
