import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { stderrLog } from '@vendor-review/testbed';
import { runtimeModule } from '@vendor-review/compare/runtimes';
import { readEvents, type WorkerEvent } from '../events.ts';
import type { TemporalJob } from '../job.ts';
import type { TemporalApp } from '../load-app.ts';
import { importSdk, sdkPackage } from '../resolve-sdk.ts';
import { startWorker, within, type StartedWorker } from '../spawn-worker.ts';
import { STICKY_NOTE } from './temporal-worker.ts';
import { leaves } from './langgraph.ts';
import * as phase from './types.ts';
import type { CellRun, CellSpec, Driver, DriverContext } from './types.ts';

export interface TemporalDriverOptions {
  app: TemporalApp;
  args: unknown[];
  signals: { name: string; args: unknown[] }[];
}

export const TEMPORAL_PACKAGES = ['@temporalio/worker', '@temporalio/client', '@temporalio/workflow'];

interface Handle {
  result(): Promise<unknown>;
  signal(name: string, ...args: unknown[]): Promise<void>;
  describe(): Promise<{ raw: { pendingActivities?: PendingActivity[] } }>;
  terminate(reason?: string): Promise<unknown>;
}
interface PendingActivity {
  activityType?: { name?: string | null } | null;
  attempt?: number | null;
  state?: unknown;
}
interface ClientSdk {
  Connection: { connect(o: { address: string }): Promise<{ close(): Promise<void> }> };
  Client: new (o: { connection: unknown; namespace: string }) => {
    workflow: { start(type: string, o: Record<string, unknown>): Promise<Handle> };
  };
}

/** Why a run has not ended: the activity the server holds for a dead worker, whose timeout decides when it runs again. */
async function whatItWaitsOn(handle: Handle): Promise<string> {
  const d = await handle.describe().catch(() => null);
  const pending = d?.raw.pendingActivities ?? [];
  if (pending.length === 0)
    return 'no activity pending: a workflow task waits (its workflowTaskTimeout, or a signal the run waits for: --signal)';
  return pending
    .map(
      (p) =>
        `activity ${p.activityType?.name ?? '?'} (attempt ${p.attempt ?? '?'}) held by the server for the dead worker: its startToCloseTimeout (or heartbeatTimeout) decides when it runs again`,
    )
    .join('; ');
}

/**
 * Temporal: the server from the Temporal runtime module (the user's TEMPORAL_ADDRESS, else a dev
 * server), the workflow bundle built once, a task queue per cell. Worker A serves the run until its
 * point; worker B, fresh on the same queue, gets the server's next task.
 */
export async function temporalDriver(o: TemporalDriverOptions, ctx: DriverContext): Promise<Driver> {
  const from = resolve(o.app.workflowsPath);
  const temporal = await runtimeModule('temporal');
  const spec = temporal.servers?.find((s) => s.id === 'temporal');
  if (!spec) throw new Error('the Temporal runtime module declares no server');
  const server = await spec.start({ env: process.env, log: stderrLog });
  const { address, namespace } = server.connection as { address: string; namespace: string };
  try {
    const { bundleWorkflowCode } = await importSdk<{
      bundleWorkflowCode(o: { workflowsPath: string; logger?: unknown }): Promise<{ code: string }>;
    }>(from, '@temporalio/worker');
    const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };
    const { code } = await bundleWorkflowCode({ workflowsPath: from, logger: quiet });
    await writeFile(join(ctx.workDir, 'workflow-bundle.js'), code);
  } catch (err) {
    await server.stop();
    throw err;
  }
  const { Connection, Client } = await importSdk<ClientSdk>(from, '@temporalio/client');
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
  const run = randomUUID().slice(0, 8);
  const job = (cell: CellSpec, worker: 'a' | 'b', prior?: Record<string, number>): TemporalJob => ({
    driver: 'temporal',
    site: phase.siteJob(ctx, cell, worker, prior),
    activitiesPath: resolve(o.app.activitiesPath),
    workflowsPath: from,
    bundlePath: join(ctx.workDir, 'workflow-bundle.js'),
    address,
    namespace,
    taskQueue: `crash-test-${run}-${cell.id}`,
  });
  const stopWorker = async (w: StartedWorker): Promise<void> => {
    w.kill('SIGTERM');
    if (!(await within(w.exited, 10_000))) await leaves(w, 'kill');
  };
  return {
    runtime: 'temporal',
    versions: Object.fromEntries(TEMPORAL_PACKAGES.map((p) => [p, sdkPackage(from, p)?.version ?? null])),
    infra: [`Temporal: ${server.description}`],
    notes: [STICKY_NOTE],
    async run(cell) {
      const startedAt = Date.now();
      const profile: Record<string, number> = {};
      const aJob = job(cell, 'a');
      const handle = await client.workflow.start(o.app.workflowType, {
        taskQueue: aJob.taskQueue,
        workflowId: `crash-test-${run}-${cell.id}`,
        args: o.args,
      });
      for (const s of o.signals) await handle.signal(s.name, ...s.args);
      const result = handle.result().then(
        (value) => ({ value, at: Date.now(), error: null as string | null }),
        (err: unknown) => ({ value: null, at: Date.now(), error: err instanceof Error ? err.message : String(err) }),
      );
      const ran = (
        a: WorkerEvent[],
        b: WorkerEvent[],
        r: Awaited<typeof result> | null,
        stuck: string | null,
      ): CellRun => ({
        spec: cell,
        a,
        b,
        startedAt,
        aDiedAt: phase.diedAt(a),
        endedAt: r?.at ?? null,
        final: r && !r.error ? { state: r.value, status: 'completed' } : null,
        stuck,
        profile,
      });
      const a = startWorker(aJob, { cwd: ctx.cwd, output: phase.outputOf(ctx, cell, 'a') });
      // Worker A serves the run until it dies at its point, or until the run ends (a point never reached).
      const first = await within(
        Promise.race([a.exited.then(() => 'died' as const), result.then(() => 'ended' as const)]),
        ctx.boundMs,
      );
      profile['worker A'] = Date.now() - a.startedAt;
      if (first !== 'died') {
        const r = first === 'ended' ? await result : null;
        await stopWorker(a);
        const aEvents = readEvents(aJob.site.log);
        const stuck = r
          ? r.error
          : `${phase.errorOf(aEvents) ?? `the run did not end within ${ctx.boundMs / 1000} s`}: ${await whatItWaitsOn(handle)}`;
        if (!r) await handle.terminate('crash-test: bound reached').catch(() => {});
        return ran(aEvents, [], r, stuck);
      }
      const aEvents = readEvents(aJob.site.log);
      const bJob = job(cell, 'b', phase.priorCounts(aEvents));
      const b = startWorker(bJob, { cwd: ctx.cwd, output: phase.outputOf(ctx, cell, 'b') });
      const r = await within(result, ctx.boundMs);
      profile['worker B'] = Date.now() - b.startedAt;
      const stuck = r
        ? r.error
        : `the run did not end within ${ctx.boundMs / 1000} s after worker A died: ${await whatItWaitsOn(handle)}`;
      if (!r) await handle.terminate('crash-test: bound reached').catch(() => {});
      await stopWorker(b);
      return ran(aEvents, readEvents(bJob.site.log), r, stuck);
    },
    async close() {
      await connection.close();
      await server.stop();
    },
  };
}
