import type { RuntimeModule } from '@vendor-review/conformance';
import { describeBuilt, workerBundle } from '@vendor-review/testbed';
import { installedVersions } from '@vendor-review/worker-io';
import { LANGGRAPH_FUNCTIONAL } from './info.ts';

/**
 * LangGraph's Functional API as the tools see it: like the StateGraph, a library on the
 * PostgreSQL it is given and one worker process per run; the worker is the StateGraph's (one
 * worker loop), which builds the entrypoint for runs recorded as functional.
 */
export const runtime: RuntimeModule = {
  info: LANGGRAPH_FUNCTIONAL,
  bench: async () => (await import('./runtime-bench.ts')).bench,
  versions: () =>
    installedVersions(import.meta.url, ['@langchain/langgraph', '@langchain/langgraph-checkpoint-postgres']),
  async start(env) {
    const [{ createFunctionalAdapter }, { langGraphRecords }, { setupDatabase }, { WORKER_ENTRY }] = await Promise.all([
      import('./adapter.ts'),
      import('../records.ts'),
      import('../../src/setup.ts'),
      import('../paths.ts'),
    ]);
    const [worker] = await Promise.all([workerBundle(WORKER_ENTRY), setupDatabase(env.databaseUrl)]);
    const leaseTtlMs = env.tuning?.leaseTtlMs;
    const adapter = createFunctionalAdapter({
      databaseUrl: env.databaseUrl,
      worldUrl: env.worldUrl,
      workerEntry: worker.path,
      ...(leaseTtlMs ? { leaseTtlMs } : {}),
    });
    return {
      info: LANGGRAPH_FUNCTIONAL,
      adapter,
      built: [describeBuilt('LangGraph worker', worker)],
      workers: { kind: 'per-run' },
      records: langGraphRecords(env.databaseUrl),
    };
  },
};
