import type { RuntimeModule } from '@vendor-review/conformance';
import { describeBuilt, workerBundle } from '@vendor-review/testbed';
import { installedVersions } from '@vendor-review/worker-io';
import { LANGGRAPH } from './info.ts';

/**
 * LangGraph's StateGraph as the tools see it: a library on the PostgreSQL it is given, one worker
 * process per run (it owns the run's thread for as long as it lives).
 */
export const runtime: RuntimeModule = {
  info: LANGGRAPH,
  versions: () =>
    installedVersions(import.meta.url, ['@langchain/langgraph', '@langchain/langgraph-checkpoint-postgres']),
  bench: async () => (await import('./bench/runtime-bench.ts')).bench,
  async start(env) {
    const [{ createLangGraphAdapter }, { langGraphRecords }, { setupDatabase }, { WORKER_ENTRY }] = await Promise.all([
      import('./adapter.ts'),
      import('./records.ts'),
      import('../src/setup.ts'),
      import('./paths.ts'),
    ]);
    const [worker] = await Promise.all([workerBundle(WORKER_ENTRY), setupDatabase(env.databaseUrl)]);
    const leaseTtlMs = env.tuning?.leaseTtlMs;
    const adapter = createLangGraphAdapter({
      databaseUrl: env.databaseUrl,
      worldUrl: env.worldUrl,
      workerEntry: worker.path,
      ...(leaseTtlMs ? { leaseTtlMs } : {}),
    });
    return {
      info: LANGGRAPH,
      adapter,
      built: [describeBuilt('LangGraph worker', worker)],
      workers: { kind: 'per-run' },
      records: langGraphRecords(env.databaseUrl),
    };
  },
};
