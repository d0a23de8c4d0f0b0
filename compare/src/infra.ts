import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { maskDatabaseUrl, resolveTemporalCli, startPostgres, startTemporal, type PostgresHandle, type TemporalHandle } from '@vendor-review/domain/infra';
import { startWorld, type World } from '@vendor-review/domain/world';
import * as langgraph from '@vendor-review/langgraph';
import * as temporal from '@vendor-review/temporal';
import { runtimeVersions } from './versions.ts';
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
  temporal: { address: string; namespace: string; kind: TemporalHandle['kind']; uiUrl: string | null; version: string | null } | null;
  bundle: { path: string; ms: number; cached: boolean } | null;
  describe(): { world: string; postgres: string; temporal: string; temporalUi: string | null; workflowBundleMs: number | null };
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

/**
 * The workflow bundle takes webpack 10-20 s on two cores, and a new one is needed only when the
 * workflow code (or what it imports) changed: it is cached under compare/.cache keyed by a hash of
 * those sources and the SDK version.
 */
const CACHE_DIR = fileURLToPath(new URL('../.cache/', import.meta.url));

function sourcesHash(): string {
  const hash = createHash('sha256');
  const roots = [path.dirname(fileURLToPath(import.meta.resolve('@vendor-review/temporal'))), path.dirname(fileURLToPath(import.meta.resolve('@vendor-review/domain/pure')))];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (name === 'node_modules' || name.startsWith('.')) continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|js|json)$/.test(name) && !/\.test\.ts$/.test(name)) hash.update(full).update(readFileSync(full));
    }
  };
  for (const r of roots) walk(r);
  hash.update(runtimeVersions().temporalSdk ?? '');
  return hash.digest('hex').slice(0, 16);
}

async function workflowBundle(scratch: string, log: (l: string) => void): Promise<{ path: string; ms: number; cached: boolean }> {
  const key = sourcesHash();
  const cached = path.join(CACHE_DIR, `workflow-bundle-${key}.js`);
  if (existsSync(cached)) return { path: cached, ms: 0, cached: true };
  const built = await temporal.buildWorkflowBundle(path.join(scratch, 'workflow-bundle.js'));
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    for (const old of readdirSync(CACHE_DIR)) if (old.startsWith('workflow-bundle-')) rmSync(path.join(CACHE_DIR, old), { force: true });
    copyFileSync(built.path, cached);
    return { path: cached, ms: built.ms, cached: false };
  } catch (err) {
    log(`compare: could not cache the workflow bundle (${err instanceof Error ? err.message : String(err)}); using it uncached`);
    return { ...built, cached: false };
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
    for (const stop of stops.reverse()) await stop().catch((err) => log(`teardown: ${err instanceof Error ? err.message : String(err)}`));
  };

  try {
    const worldP = startWorld();
    const pgP = startPostgres({ env, log });
    const temporalP = o.needTemporal ? startTemporal({ env, log, sdkFallback: ({ namespace }) => (void namespace, temporal.sdkDownloadedTemporal()) }) : Promise.resolve(null);
    const bundleP = o.needTemporal ? workflowBundle(scratch, log) : Promise.resolve(null);
    // Collect every start, so whatever did start is stopped even when a sibling failed.
    const settled = await Promise.allSettled([worldP, pgP, temporalP, bundleP]);
    const [worldR, pgR, temporalR, bundleR] = settled;
    if (worldR.status === 'fulfilled') stops.push(() => (worldR.value as World).stop());
    if (pgR.status === 'fulfilled') stops.push(() => (pgR.value as PostgresHandle).stop());
    if (temporalR.status === 'fulfilled' && temporalR.value) stops.push(() => (temporalR.value as TemporalHandle).stop());
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;

    const world = (worldR as PromiseFulfilledResult<World>).value;
    const pg = (pgR as PromiseFulfilledResult<PostgresHandle>).value;
    const t = (temporalR as PromiseFulfilledResult<TemporalHandle | null>).value;
    const bundle = (bundleR as PromiseFulfilledResult<{ path: string; ms: number; cached: boolean } | null>).value;
    log(`world: ${world.url}${bundle ? ` · workflow bundle ${bundle.cached ? 'from cache' : `built in ${(bundle.ms / 1000).toFixed(1)} s`}` : ''}`);

    await Promise.all([o.needLangGraph ? langgraph.setupDatabase(pg.url) : null, o.needTemporal ? temporal.setupDatabase(pg.url) : null]);

    // A user's own Temporal keeps its runs, so link them; a dev server we started is gone afterwards.
    const uiUrl = t ? (t.kind === 'external' ? (env.TEMPORAL_UI_URL?.trim() || 'http://localhost:8080') : (t.uiUrl ?? null)) : null;
    const version = t ? (t.kind === 'cli' ? await cliVersion(env) : null) : null;
    return {
      worldUrl: world.url,
      databaseUrl: pg.url,
      postgresKind: pg.kind,
      temporal: t ? { address: t.address, namespace: t.namespace, kind: t.kind, uiUrl: t.kind === 'external' ? uiUrl : null, version } : null,
      bundle,
      describe: () => ({
        world: `simulated world at ${world.url}`,
        postgres: `${pg.kind === 'embedded' ? 'embedded PostgreSQL' : 'DATABASE_URL'} ${maskDatabaseUrl(pg.url)}`,
        temporal: t ? `${t.kind === 'cli' ? 'dev server (Temporal CLI)' : t.kind === 'external' ? 'TEMPORAL_ADDRESS' : 'SDK-downloaded dev server'} ${t.address}, namespace ${t.namespace}` : 'not used',
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
