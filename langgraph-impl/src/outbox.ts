import {
  isTransient,
  sendDelivery,
  type Mail,
  type Ports,
  type Receipt,
  type StepContext,
} from '@vendor-review/domain';
import type pg from 'pg';
import { withFence, type Lease } from './lease.ts';
import { inTransaction } from './transaction.ts';
import type { OutboxWriter } from './nodes.ts';
import {
  CLAIM_OUTBOX_ROW,
  COUNT_OUTBOX_UNSENT,
  INSERT_OUTBOX,
  MARK_OUTBOX_DEAD,
  MARK_OUTBOX_RETRY,
  MARK_OUTBOX_SENT,
} from './sql.ts';

/**
 * DELIVER (hardened) does not send: it records "send this mail" in the same PostgreSQL as the
 * checkpoints, keyed by the idempotency key, under the same lease fence as the checkpoint writes.
 * LangGraph does not let us put this row in the checkpoint's own transaction, so the next best:
 * the insert is idempotent (a re-executed DELIVER writes nothing new) and fenced (a worker that
 * lost the thread cannot enqueue). A drainer then delivers each row and marks it sent; if it
 * dies between send and mark, the next drainer sends again with the same key and the mailer
 * collapses it.
 */
export function outboxWriter(pool: pg.Pool, lease: Lease | null): OutboxWriter {
  return {
    async enqueue({ runId, threadId, idempotencyKey, mail }) {
      await withFence(pool, lease, (client) =>
        client.query(INSERT_OUTBOX, [runId, threadId, idempotencyKey, JSON.stringify(mail)]),
      );
    },
  };
}

export const OUTBOX_MAX_ATTEMPTS = 8;

export interface DrainOptions {
  pool: pg.Pool;
  ports: Ports;
  worker: string;
  /** Only this run's rows (a run's own worker); all rows when omitted (a dedicated drainer). */
  runId?: string;
  /** Stop when nothing is due any more (true), or keep polling until the signal aborts. */
  untilEmpty?: boolean;
  signal?: AbortSignal;
  pollMs?: number;
  log?: (line: string) => void;
}

export interface DrainResult {
  sent: number;
  dead: number;
  retried: number;
}

const backoffMs = (attempts: number) => Math.min(30_000, 250 * 2 ** attempts);

/** Delivers one due row. Returns what happened, or null when nothing is due. */
export async function drainOne(
  opts: Omit<DrainOptions, 'untilEmpty' | 'signal' | 'pollMs'>,
): Promise<'sent' | 'dead' | 'retried' | null> {
  return inTransaction(opts.pool, async (client) => {
    const row = (await client.query(CLAIM_OUTBOX_ROW, [opts.runId ?? null])).rows[0];
    if (!row) return null;
    const ctx: StepContext = {
      run: { runId: row.run_id, runtime: 'langgraph', runtimeId: row.thread_id },
      step: 'DELIVER',
      attempt: row.attempts + 1,
      idempotencyKey: row.idempotency_key,
      worker: opts.worker,
    };
    let outcome: 'sent' | 'dead' | 'retried';
    try {
      const receipt: Receipt = await sendDelivery(row.mail as Mail, opts.ports, ctx);
      await client.query(MARK_OUTBOX_SENT, [row.id, receipt.id, receipt.duplicate, opts.worker]);
      outcome = 'sent';
    } catch (err) {
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      if (isTransient(err) && ctx.attempt < OUTBOX_MAX_ATTEMPTS) {
        await client.query(MARK_OUTBOX_RETRY, [row.id, message, backoffMs(ctx.attempt)]);
        outcome = 'retried';
      } else {
        await client.query(MARK_OUTBOX_DEAD, [row.id, message]);
        outcome = 'dead';
      }
      opts.log?.(`outbox row ${row.id} (run ${row.run_id}): ${outcome} after ${message}`);
    }
    return outcome;
  });
}

export async function drainOutbox(opts: DrainOptions): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, dead: 0, retried: 0 };
  const pollMs = opts.pollMs ?? 200;
  while (!opts.signal?.aborted) {
    const outcome = await drainOne(opts);
    if (outcome) {
      result[outcome] += 1;
      continue;
    }
    if (opts.untilEmpty) {
      // Nothing due now; rows waiting for a retry's backoff still count as work left.
      const { rows } = await opts.pool.query(COUNT_OUTBOX_UNSENT, [opts.runId ?? null]);
      if (rows[0].n === 0) break;
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return result;
}
