import type { Ports } from '@vendor-review/pipeline';
import type { Store } from './postgres-store.ts';

/**
 * The delivery half of the hardened outbox, running beside the worker in the same process: it
 * delivers its task queue's mail (the shared outbox module claims, sends with the row's key, and
 * marks). The domain's sendDelivery holds the after-deliver crash point, so in the hardened variant
 * that crash happens here, and the next drainer resends with the same key (the mailer collapses it).
 */
export function startOutboxDrainer(o: {
  store: Store;
  ports: Ports;
  worker: string;
  taskQueue: string;
  log?: (line: string) => void;
}): { stop(): Promise<void> } {
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const stop = new AbortController();
  const loop = (async () => {
    while (!stop.signal.aborted) {
      try {
        await o.store.drain({ ports: o.ports, worker: o.worker, taskQueue: o.taskQueue, signal: stop.signal, log });
      } catch (err) {
        if (stop.signal.aborted) break;
        // PostgreSQL may be restarting: the rows wait in the table, so just come back.
        log(`outbox drainer: ${err instanceof Error ? err.message : String(err)}; retrying in 1 s`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();
  return {
    async stop() {
      stop.abort();
      await loop;
    },
  };
}
