import type { RuntimeModule } from '@vendor-review/conformance';
import { describeBuilt, workerBundle } from '@vendor-review/testbed';
import { installedVersions } from '@vendor-review/worker-io';
import { DBOS_INFO } from './info.ts';

/**
 * DBOS Transact as the tools see it: a library on the PostgreSQL it is given (its system schema
 * beside our tables), one worker process per run under the run's executor id. Per run, not a
 * queue: DBOS recovers a dead process's workflows only in a process launched with the same
 * executor id and application version, so the replacement of a run's worker must be that run's
 * worker again; a pool of anonymous queue workers would leave a dead one's runs PENDING forever.
 */
export const runtime: RuntimeModule = {
  info: DBOS_INFO,
  versions: () => installedVersions(import.meta.url, ['@dbos-inc/dbos-sdk']),
  bench: async () => (await import('./bench/runtime-bench.ts')).bench,
  async start(env) {
    const [{ createDbosAdapter }, { dbosRecords }, { setupDatabase }, { WORKER_ENTRY, OPTIONAL_TELEMETRY }] =
      await Promise.all([
        import('./adapter.ts'),
        import('./records.ts'),
        import('../src/store.ts'),
        import('./paths.ts'),
      ]);
    const [worker] = await Promise.all([
      workerBundle(WORKER_ENTRY, OPTIONAL_TELEMETRY),
      setupDatabase(env.databaseUrl),
    ]);
    const adapter = await createDbosAdapter({
      databaseUrl: env.databaseUrl,
      worldUrl: env.worldUrl,
      workerEntry: worker.path,
    });
    return {
      info: DBOS_INFO,
      adapter,
      built: [describeBuilt('DBOS worker', worker)],
      workers: { kind: 'per-run' },
      records: dbosRecords(env.databaseUrl),
    };
  },
};
