import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectionTo, type RuntimeModule } from '@vendor-review/conformance';
import { describeBuilt, workerBundle } from '@vendor-review/testbed';
import { installedVersions } from '@vendor-review/worker-io';
import { RESTATE_INFO } from './info.ts';
import { RESTATE_SERVER } from './server/spec.ts';

/**
 * Restate as the tools see it: a server that keeps each invocation's journal and pushes the
 * invocation to the address its deployment was registered at, and endpoint processes behind that
 * address (the router: a load balancer in front of them). One endpoint process per run, restarted
 * by its supervisor, as a pod behind a Service is.
 */
export const runtime: RuntimeModule = {
  info: RESTATE_INFO,
  servers: [RESTATE_SERVER],
  versions: () => installedVersions(import.meta.url, ['@restatedev/restate-sdk', '@restatedev/restate-server']),
  bench: async () => (await import('./bench/runtime-bench.ts')).bench,
  async start(env) {
    const server = connectionTo(env.servers, RESTATE_SERVER);
    const [{ createRestateAdapter }, { restateRecords }, { setupDatabase }, { WORKER_ENTRY }] = await Promise.all([
      import('./adapter.ts'),
      import('./records.ts'),
      import('../src/store.ts'),
      import('./paths.ts'),
    ]);
    const [worker] = await Promise.all([workerBundle(WORKER_ENTRY), setupDatabase(env.databaseUrl)]);
    const adapter = await createRestateAdapter({
      server,
      databaseUrl: env.databaseUrl,
      worldUrl: env.worldUrl,
      workerEntry: worker.path,
      routerDir: mkdtempSync(join(tmpdir(), 'restate-endpoints-')),
      retryInitialIntervalMs: env.tuning?.retryInitialIntervalMs,
    });
    return {
      info: RESTATE_INFO,
      adapter,
      built: [describeBuilt('Restate endpoint', worker)],
      workers: { kind: 'per-run' },
      records: restateRecords(env.databaseUrl),
    };
  },
};
