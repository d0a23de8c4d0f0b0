import { connectionTo, type RuntimeModule } from '@vendor-review/conformance';
import { describeBuilt, workerBundle } from '@vendor-review/testbed';
import { installedVersions, withConnection } from '@vendor-review/worker-io';
import { TEMPORAL } from './info.ts';
import { TEMPORAL_SERVER } from './server/spec.ts';

/**
 * Temporal as the tools see it: a server that keeps each run's history, and worker processes that
 * poll a task queue (any live one takes the next task). Hardened workers keep the outbox and the
 * dead letters in the PostgreSQL they are given.
 */
export const runtime: RuntimeModule = {
  info: TEMPORAL,
  servers: [TEMPORAL_SERVER],
  versions: () => installedVersions(import.meta.url, ['@temporalio/worker']),
  bench: async () => (await import('./bench/runtime-bench.ts')).bench,
  async start(env) {
    const temporal = connectionTo(env.servers, TEMPORAL_SERVER);
    const [
      { createTemporalAdapter },
      { cachedWorkflowBundle },
      { setupDatabase, TM_OUTBOX },
      { WORKFLOW_BUNDLER },
      { HARNESS_WORKER_ENTRY },
    ] = await Promise.all([
      import('./adapter.ts'),
      import('../src/bundle.ts'),
      import('../src/postgres-store.ts'),
      import('../src/paths.ts'),
      import('./paths.ts'),
    ]);
    const [worker, bundle] = await Promise.all([
      workerBundle(HARNESS_WORKER_ENTRY, WORKFLOW_BUNDLER),
      cachedWorkflowBundle(),
      setupDatabase(env.databaseUrl),
    ]);
    const { heartbeatTimeoutMs, stickyScheduleToStartMs } = env.tuning ?? {};
    const sharedQueue = env.sharedQueue;
    const adapter = await createTemporalAdapter({
      temporal,
      uiUrl: temporal.uiUrl,
      databaseUrl: env.databaseUrl,
      worldUrl: env.worldUrl,
      bundlePath: bundle.path,
      workerEntry: worker.path,
      ...(sharedQueue ? { taskQueue: (_runId, config) => sharedQueue(config) } : {}),
      ...(heartbeatTimeoutMs ? { heartbeatTimeoutMs } : {}),
      ...(stickyScheduleToStartMs ? { stickyScheduleToStartMs } : {}),
    });
    return {
      info: TEMPORAL,
      adapter,
      built: [describeBuilt('Temporal worker', worker), describeBuilt('workflow bundle', bundle)],
      workers: {
        kind: 'queue',
        // A queue worker serves no run in particular: its spec is the one any run of its configuration's queue gets.
        spec(config, w) {
          if (!sharedQueue) throw new Error('queue workers need the queue their runs share (RuntimeEnv.sharedQueue)');
          const anyRun = { runId: `${sharedQueue(config)}-pool`, config, durability: null, runtimeIds: {}, link: null };
          return adapter.workerSpec({ ...anyRun, taskQueue: sharedQueue(config) }, w);
        },
      },
      records: { outbox: (runIds) => withConnection(env.databaseUrl, (db) => TM_OUTBOX.forRuns(db, runIds)) },
    };
  },
};
