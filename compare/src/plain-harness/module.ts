import type { RuntimeModule } from '@vendor-review/conformance';
import { describeBuilt, workerBundle } from '@vendor-review/testbed';
import { createPlainAdapter, PLAIN, PLAIN_WORKER_ENTRY } from './adapter.ts';

/** The floor: a worker process per job, a job table, and nothing durable in between. */
export const runtime: RuntimeModule = {
  info: PLAIN,
  versions: () => ({}),
  async start(env) {
    const worker = await workerBundle(PLAIN_WORKER_ENTRY);
    const adapter = await createPlainAdapter({
      databaseUrl: env.databaseUrl,
      worldUrl: env.worldUrl,
      workerEntry: worker.path,
    });
    return {
      info: PLAIN,
      adapter,
      built: [describeBuilt('plain worker', worker)],
      workers: { kind: 'per-run' },
      // The jobs keep no outbox and no owner.
      records: { outbox: async () => new Map() },
    };
  },
};
