import type { Ports } from '@vendor-review/pipeline';
import type { Store } from './postgres-store.ts';

/**
 * The delivery half of the hardened outbox, running beside the worker in the same process: it
 * delivers its task queue's mail (the shared outbox module claims, sends with the row's key, and
 * marks). A worker that dies after the mail went out and before its row was marked leaves the row
 * pending; the next drainer resends it with the same key, and the mailer collapses the two.
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
