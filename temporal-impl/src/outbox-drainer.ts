import { isPermanent, sendDelivery, type Ports, type StepContext } from '@vendor-review/domain';
import type { OutboxRow, Store } from './postgres-store.ts';

/**
 * The delivery half of the hardened outbox, running beside the worker in the same process: it
 * claims due rows, sends each with the key the DELIVER activity stored, and marks it sent. The
 * domain's sendDelivery holds the after-deliver crash point, so in the hardened variant that
 * crash happens here, and the next drainer resends with the same key (the mailer collapses it).
 */
export function startOutboxDrainer(o: {
  store: Store;
  ports: Ports;
  worker: string;
  taskQueue: string;
  idleMs?: number;
  log?: (line: string) => void;
}): { stop(): Promise<void> } {
  const idleMs = o.idleMs ?? 200;
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let stopped = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });

  const contextFor = (row: OutboxRow): StepContext => ({
    run: {
      runId: row.run.runId,
      runtime: 'temporal',
      runtimeId: row.run.workflowId,
      runtimeRunId: row.run.runtimeRunId,
    },
    step: 'DELIVER',
    attempt: row.attempts + 1,
    idempotencyKey: row.key,
    worker: o.worker,
  });

  const loop = (async () => {
    while (!stopped) {
      try {
        const outcome = await o.store.drainOne(
          o.taskQueue,
          o.worker,
          (row) => sendDelivery(row.mail, o.ports, contextFor(row)),
          (err) => ({
            error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
            permanent: isPermanent(err),
          }),
        );
        if (outcome === 'failed') log('outbox: gave up a delivery (see temporal_outbox.last_error)');
        if (outcome === 'empty' || outcome === 'retry') await pause(idleMs);
      } catch (err) {
        if (stopped) break;
        log(`outbox drainer: ${err instanceof Error ? err.message : String(err)}; retrying in 1s`);
        await pause(1000);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
