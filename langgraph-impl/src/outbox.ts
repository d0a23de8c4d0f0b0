import type { Mail, Ports } from '@vendor-review/pipeline';
import { createOutbox } from '@vendor-review/worker-io';
import type pg from 'pg';
import { withFence, type Lease } from './lease.ts';
import type { OutboxWriter } from './nodes.ts';
import { LG_OUTBOX_SCOPE, TABLES } from './sql.ts';

/** The shared outbox (shared-domain/worker-io/src/outbox.ts) in LangGraph's table. */
export const LG_OUTBOX = createOutbox(TABLES.outbox);

/**
 * DELIVER (hardened) does not send: it records "send this mail" in the same PostgreSQL as the
 * checkpoints, under the same lease fence as the checkpoint writes. LangGraph does not let us put
 * this row in the checkpoint's own transaction, so the next best: the insert is idempotent (a
 * re-executed DELIVER writes nothing new) and fenced (a worker that lost the thread cannot enqueue).
 */
export function outboxWriter(pool: pg.Pool, lease: Lease | null): OutboxWriter {
  return {
    async enqueue({
      runId,
      threadId,
      idempotencyKey,
      mail,
    }: {
      runId: string;
      threadId: string;
      idempotencyKey: string;
      mail: Mail;
    }) {
      await withFence(pool, lease, (client) =>
        LG_OUTBOX.enqueue(client, {
          scope: LG_OUTBOX_SCOPE,
          key: idempotencyKey,
          run: { runId, runtime: 'langgraph', runtimeId: threadId },
          mail,
        }),
      );
    },
  };
}

/** A hardened run's own worker sends the run's mail once the graph has ended, until none is left. */
export async function deliverRunOutbox(o: {
  pool: pg.Pool;
  ports: Ports;
  worker: string;
  runId: string;
  signal: AbortSignal;
  log: (line: string) => void;
}): Promise<void> {
  const drained = await LG_OUTBOX.drain({ ...o, scope: LG_OUTBOX_SCOPE, untilEmpty: true });
  if (drained.sent) o.log(`delivered ${drained.sent} outbox mail(s)`);
}
