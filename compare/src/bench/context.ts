import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createHttpPorts, type Ports, type RuntimeAdapter } from '@vendor-review/domain';
import { workerBundle } from '@vendor-review/domain/infra';
import type pg from 'pg';
import { startInfra, type Infra } from '../infra.ts';
import type { Plan } from './plan.ts';

/**
 * Everything the measurements share, brought up once: the infrastructure `pnpm compare` uses (the
 * world, PostgreSQL, a Temporal dev server, the runtimes' tables and worker bundles), the world's
 * latency set to zero (the steps' own waiting would hide what the runtimes cost), a pool and a
 * Temporal client for in-process runs, and a way to get an adapter configured for one setting.
 */
export interface BenchContext {
  infra: Infra;
  plan: Plan;
  runtimes: string[];
  ports: Ports;
  log: (line: string) => void;
  lg: LangGraphKit | null;
  tm: TemporalKit | null;
}

export interface LangGraphKit {
  pool: pg.Pool;
  workerEntry: string;
  adapter(o: { leaseTtlMs?: number }): RuntimeAdapter;
}

export interface TemporalKit {
  client: Client;
  namespace: string;
  /** The workers' own bundle (the review workflow) and the bench's (review + bare workflows). */
  bundlePath: string;
  benchBundlePath: string;
  workerEntry: string;
  adapter(o: { heartbeatTimeoutMs?: number; stickyScheduleToStartMs?: number }): Promise<RuntimeAdapter>;
}

/** The world answering at once: what the runtimes cost, not what the steps wait for. */
export const WORLD_LATENCY = { modelLatencyMs: 0, pageLatencyMs: 0 };
/** The world's own defaults (a model that takes a while): where an activity or a lease must outlast a step. */
export const WORLD_DEFAULT_LATENCY = { modelLatencyMs: 150, pageLatencyMs: 0 };
/** A model call as long as a real one: a busy worker must keep its lease or heartbeat alive through it. */
export const WORLD_SLOW_MODEL = { modelLatencyMs: 2000, pageLatencyMs: 0 };

/**
 * A private copy of a built bundle beside the original (so its external packages still resolve),
 * for as long as the bench runs: a build of newer sources elsewhere replaces the cached file, and
 * a worker started later in this run must still find the code the earlier ones ran.
 */
function pin(file: string, closers: (() => Promise<unknown>)[]): string {
  const copy = path.join(path.dirname(file), `pinned-${process.pid}-${path.basename(file)}`);
  copyFileSync(file, copy);
  closers.push(async () => rmSync(copy, { force: true }));
  return copy;
}

export async function configureWorld(worldUrl: string, latency = WORLD_LATENCY): Promise<void> {
  const res = await fetch(`${worldUrl}/__config`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(latency),
  });
  if (!res.ok) throw new Error(`the world refused its latency settings: HTTP ${res.status}`);
}

export async function openContext(o: {
  plan: Plan;
  runtimes: string[];
  log: (line: string) => void;
}): Promise<{ ctx: BenchContext; close(): Promise<void> }> {
  const infra = await startInfra({ runtimes: o.runtimes, log: o.log });
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await infra.teardown();
  };
  try {
    await configureWorld(infra.worldUrl);
    const base = { databaseUrl: infra.databaseUrl, worldUrl: infra.worldUrl };
    let lgKit: LangGraphKit | null = null;
    if (o.runtimes.includes('langgraph')) {
      const lg = await import('@vendor-review/langgraph');
      const lgb = await import('@vendor-review/langgraph/bench');
      const worker = { path: pin((await workerBundle(lg.WORKER_ENTRY)).path, closers) };
      const pool = lgb.createPool(infra.databaseUrl, { max: 8 });
      closers.push(() => pool.end());
      lgKit = {
        pool,
        workerEntry: worker.path,
        adapter: ({ leaseTtlMs }) => {
          const a = lg.createLangGraphAdapter({
            ...base,
            workerEntry: worker.path,
            ...(leaseTtlMs ? { leaseTtlMs } : {}),
          });
          closers.push(() => a.close());
          return a;
        },
      };
    }
    let tmKit: TemporalKit | null = null;
    const temporal = infra.temporal;
    if (o.runtimes.includes('temporal') && temporal) {
      const tm = await import('@vendor-review/temporal');
      const tmb = await import('@vendor-review/temporal/bench');
      o.log('bench: Temporal bench workflow bundle (cached after the first build)…');
      const built = await Promise.all([
        workerBundle(tm.WORKER_ENTRY, ['@temporalio/*']),
        tm.cachedWorkflowBundle(),
        tmb.cachedBenchBundle(),
      ]);
      if (!built[2].cached) o.log(`bench: bench workflow bundle built in ${(built[2].ms / 1000).toFixed(1)} s`);
      const [worker, bundle, benchBundle] = [built[0], built[1], built[2]].map((b) => ({
        path: pin(b.path, closers),
      })) as [{ path: string }, { path: string }, { path: string }];
      const connection = await Connection.connect(temporal.connection as Parameters<typeof Connection.connect>[0]);
      closers.push(() => connection.close());
      tmKit = {
        client: new Client({ connection, namespace: temporal.namespace }),
        namespace: temporal.namespace,
        bundlePath: bundle.path,
        benchBundlePath: benchBundle.path,
        workerEntry: worker.path,
        adapter: async (t) => {
          const a = await tm.createTemporalAdapter({
            ...base,
            temporal,
            uiUrl: null,
            bundlePath: bundle.path,
            workerEntry: worker.path,
            ...t,
          });
          closers.push(() => a.close());
          return a;
        },
      };
    }
    const ctx: BenchContext = {
      infra,
      plan: o.plan,
      runtimes: o.runtimes,
      ports: createHttpPorts({ worldUrl: infra.worldUrl }),
      log: o.log,
      lg: lgKit,
      tm: tmKit,
    };
    return { ctx, close };
  } catch (err) {
    await close();
    throw err;
  }
}
