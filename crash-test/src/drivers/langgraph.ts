import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { STOP_GRACE_MS } from '@vendor-review/instrument/points';
import { startPostgres, maskDatabaseUrl, type PostgresHandle } from '@vendor-review/testbed';
import { readEvents } from '../events.ts';
import type { LangGraphJob } from '../job.ts';
import type { LangGraphApp } from '../load-app.ts';
import { importSdk, sdkPackage } from '../resolve-sdk.ts';
import { startWorker, within, type StartedWorker } from '../spawn-worker.ts';
import {
  diedAt,
  doneOf,
  errorOf,
  outputOf,
  priorCounts,
  siteJob,
  type CellRun,
  type CellSpec,
  type Driver,
  type DriverContext,
} from './types.ts';

export interface LangGraphDriverOptions {
  module: string;
  app: LangGraphApp;
  input: unknown;
  resume?: unknown;
  durability?: 'sync' | 'async' | 'exit';
}

export const LANGGRAPH_PACKAGES = [
  '@langchain/langgraph',
  '@langchain/langgraph-checkpoint-postgres',
  '@langchain/core',
];

/** Ends a worker that is still there: at once for a kill, after the grace period for a SIGTERM. */
export async function ended(w: StartedWorker, boundMs: number): Promise<{ at: number } | null> {
  return within(w.exited, boundMs);
}

export async function leaves(w: StartedWorker, stop: 'kill' | 'term'): Promise<void> {
  if (stop === 'term' && (await within(w.exited, STOP_GRACE_MS))) return;
  w.kill('SIGKILL');
  await w.exited;
}

/**
 * The checkpointer's migrations are not safe against another crash test setting up the same
 * database at the same moment (both insert the same migration row): the loser tries again, and finds
 * the work done.
 */
async function setUpOnce(saver: { setup(): Promise<void> }, tries = 5): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await saver.setup();
    } catch (err) {
      if (i >= tries || (err as { code?: string }).code !== '23505') throw err;
      await new Promise((r) => setTimeout(r, 100 * i));
    }
  }
}

/**
 * LangGraph (a StateGraph or an entrypoint): one thread per cell on PostgreSQL (DATABASE_URL, or
 * an embedded server), worker A runs it until its point, worker B carries the same thread on.
 */
export async function langGraphDriver(o: LangGraphDriverOptions, ctx: DriverContext): Promise<Driver> {
  const from = resolve(o.module);
  const pg: PostgresHandle = await startPostgres({ database: 'crash_test' });
  try {
    const { PostgresSaver } = await importSdk<{
      PostgresSaver: { fromConnString(url: string): { setup(): Promise<void>; end(): Promise<void> } };
    }>(from, '@langchain/langgraph-checkpoint-postgres');
    // The checkpointer's tables, made once here: workers that set them up side by side would race.
    const saver = PostgresSaver.fromConnString(pg.url);
    await setUpOnce(saver);
    await saver.end();
  } catch (err) {
    await pg.stop();
    throw err;
  }
  const run = randomUUID().slice(0, 8);
  const job = (cell: CellSpec, role: 'run' | 'resume', prior?: Record<string, number>): LangGraphJob => ({
    driver: 'langgraph',
    module: from,
    site: siteJob(ctx, cell, role === 'run' ? 'a' : 'b', prior),
    databaseUrl: pg.url,
    threadId: `crash-test-${run}-${cell.id}`,
    role,
    input: o.input,
    ...('resume' in o ? { resume: o.resume } : {}),
    ...(o.durability ? { durability: o.durability } : {}),
  });
  return {
    runtime: o.app.runtime,
    versions: Object.fromEntries(LANGGRAPH_PACKAGES.map((p) => [p, sdkPackage(from, p)?.version ?? null])),
    infra: [`PostgreSQL checkpointer (${pg.kind}) ${maskDatabaseUrl(pg.url)}`],
    notes: [`durability: ${o.durability ?? "LangGraph's default"}`],
    async run(cell) {
      const startedAt = Date.now();
      const profile: Record<string, number> = {};
      const a = startWorker(job(cell, 'run'), { cwd: ctx.cwd, output: outputOf(ctx, cell, 'a') });
      const aEnd = await ended(a, ctx.boundMs);
      if (!aEnd) await leaves(a, 'kill');
      const aEvents = readEvents(job(cell, 'run').site.log);
      const died = diedAt(aEvents);
      if (died !== null && ctx.stop === 'term') await leaves(a, 'term');
      profile['worker A'] = (aEnd?.at ?? Date.now()) - a.startedAt;
      const base: CellRun = {
        spec: cell,
        a: aEvents,
        b: [],
        startedAt,
        aDiedAt: died,
        endedAt: null,
        final: null,
        stuck: null,
        profile,
      };
      if (died === null || cell.crash === null) {
        const done = doneOf(aEvents);
        const stuck = aEnd ? errorOf(aEvents) : `worker A did not finish within ${ctx.boundMs / 1000} s`;
        return {
          ...base,
          endedAt: done?.t ?? null,
          final: done,
          stuck: done ? null : (stuck ?? 'worker A ended without a result'),
        };
      }
      const bJob = job(cell, 'resume', priorCounts(aEvents));
      const b = startWorker(bJob, { cwd: ctx.cwd, output: outputOf(ctx, cell, 'b') });
      const bEnd = await ended(b, ctx.boundMs);
      if (!bEnd) await leaves(b, 'kill');
      profile['worker B'] = (bEnd?.at ?? Date.now()) - b.startedAt;
      const bEvents = readEvents(bJob.site.log);
      const done = doneOf(bEvents);
      const stuck = done
        ? null
        : bEnd
          ? (errorOf(bEvents) ?? 'worker B ended without a result')
          : `worker B did not finish the thread within ${ctx.boundMs / 1000} s`;
      return { ...base, b: bEvents, endedAt: done?.t ?? null, final: done, stuck };
    },
    close: () => pg.stop(),
  };
}
