import type pg from 'pg';
import {
  isTransient,
  PermanentError,
  type RunIdentity,
  type StateUpdate,
  type Mail,
  type Ports,
  type Receipt,
  sendDelivery,
  type StepContext,
} from '@vendor-review/pipeline';
import { inTransaction } from './transaction.ts';

/**
 * The transactional outbox, written once for every runtime. DELIVER does not send: it records
 * "send this mail" in PostgreSQL, idempotent by its key (a re-executed DELIVER writes nothing
 * new). A drainer then claims a due row (FOR UPDATE SKIP LOCKED: two drainers never send one row
 * at once), sends it with the row's key, and marks it sent. A drainer that dies between the send
 * and the mark leaves the row due again; the next one sends with the same key and the receiver
 * collapses the duplicate.
 *
 * One retry rule: a transient failure (429, 503, timeout, dropped connection) is tried again
 * after a backoff, up to OUTBOX_MAX_ATTEMPTS sends; anything else, or the cap, marks the row
 * `dead` with the error kept, for a person to look at.
 *
 * Each runtime keeps its rows in a table of its own (same layout, `outboxTableSql`) and says with
 * `scope` which drainers may take a row (Temporal: the task queue whose workers own the run).
 */
export type OutboxStatus = 'pending' | 'sent' | 'dead';

export const OUTBOX_MAX_ATTEMPTS = 8;

/** Pause before send number `attempts + 1`: 250 ms, doubling, at most 5 s. */
export function outboxBackoffMs(attempts: number): number {
  return Math.min(5_000, 250 * 2 ** Math.max(0, attempts - 1));
}

export interface OutboxRow {
  id: number;
  scope: string;
  key: string;
  run: RunIdentity;
  mail: Mail;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  receipt: Receipt | null;
  sentBy: string | null;
}

export type DrainOutcome = 'sent' | 'retry' | 'dead';

export interface DrainResult {
  sent: number;
  retry: number;
  dead: number;
}

type Queryable = Pick<pg.ClientBase, 'query'>;

/** The one table layout; each runtime creates it (in a numbered migration) under its own name. */
export function outboxTableSql(table: string): string {
  return `
CREATE TABLE ${table} (
  id              BIGSERIAL PRIMARY KEY,
  scope           TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  run_id          TEXT NOT NULL,
  run             JSONB NOT NULL,
  mail            JSONB NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_error      TEXT,
  receipt         JSONB,
  sent_by         TEXT,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  sent_at         TIMESTAMPTZ
);
CREATE INDEX ${table}_due ON ${table} (scope, next_attempt_at) WHERE status = 'pending';
CREATE INDEX ${table}_run ON ${table} (run_id);
`;
}

function toRow(r: Record<string, unknown>): OutboxRow {
  return {
    id: Number(r.id),
    scope: r.scope as string,
    key: r.idempotency_key as string,
    run: r.run as RunIdentity,
    mail: r.mail as Mail,
    status: r.status as OutboxStatus,
    attempts: r.attempts as number,
    lastError: (r.last_error as string | null) ?? null,
    receipt: (r.receipt as Receipt | null) ?? null,
    sentBy: (r.sent_by as string | null) ?? null,
  };
}

export interface DrainOptions {
  pool: pg.Pool;
  ports: Ports;
  /** Label of the draining process, for the ledger and `sent_by`. */
  worker: string;
  scope: string;
  /** Only this run's rows (a run's own worker); every row of the scope when omitted. */
  runId?: string;
  /** Stop once nothing is left unsent (true), or keep polling until the signal aborts. */
  untilEmpty?: boolean;
  signal?: AbortSignal;
  pollMs?: number;
  log?: (line: string) => void;
}

export interface Outbox {
  readonly table: string;
  /** Write the mail once: a second call with the same key inserts nothing. `db` may be a fenced transaction's client. */
  enqueue(db: Queryable, row: { scope: string; key: string; run: RunIdentity; mail: Mail }): Promise<void>;
  byKey(db: Queryable, key: string): Promise<OutboxRow | null>;
  forRun(db: Queryable, runId: string): Promise<OutboxRow[]>;
  /** Each of these runs' rows, oldest first, in one query; runs with none are absent. */
  forRuns(db: Queryable, runIds: readonly string[]): Promise<Map<string, OutboxRow[]>>;
  /** Rows not yet sent nor given up (including those waiting out a backoff). */
  unsent(db: Queryable, scope: string, runId?: string): Promise<number>;
  /** Claims one due row, sends it and records the result; null when nothing is due. */
  drainOne(o: Omit<DrainOptions, 'untilEmpty' | 'signal' | 'pollMs'>): Promise<DrainOutcome | null>;
  drain(o: DrainOptions): Promise<DrainResult>;
  /**
   * A run's own worker after DELIVER wrote its row: sends the row of `key` now (or again: a worker
   * that died between the send and the mark left it due) until it is sent, and says what the
   * mailer answered; a row given up on, or none, is a PermanentError.
   */
  awaitSent(
    o: Omit<DrainOptions, 'untilEmpty' | 'signal' | 'log'> & { runId: string; key: string },
  ): Promise<StateUpdate>;
}

export function createOutbox(table: string): Outbox {
  if (!/^[a-z_][a-z0-9_]*$/.test(table))
    throw new Error(`outbox table name must be a plain identifier, got "${table}"`);
  const sql = {
    insert: `INSERT INTO ${table} (scope, idempotency_key, run_id, run, mail) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (idempotency_key) DO NOTHING`,
    byKey: `SELECT * FROM ${table} WHERE idempotency_key = $1`,
    forRun: `SELECT * FROM ${table} WHERE run_id = $1 ORDER BY id`,
    forRuns: `SELECT * FROM ${table} WHERE run_id = ANY($1::text[]) ORDER BY id`,
    unsent: `SELECT count(*)::int AS n FROM ${table} WHERE status = 'pending' AND scope = $1 AND ($2::text IS NULL OR run_id = $2)`,
    claim: `SELECT * FROM ${table}
            WHERE status = 'pending' AND scope = $1 AND ($2::text IS NULL OR run_id = $2) AND next_attempt_at <= now()
            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    sent: `UPDATE ${table} SET status = 'sent', attempts = attempts + 1, receipt = $2, sent_by = $3, sent_at = now(), last_error = NULL
           WHERE id = $1`,
    failed: `UPDATE ${table} SET status = $2, attempts = attempts + 1, last_error = $3,
               next_attempt_at = now() + make_interval(secs => $4::double precision / 1000)
             WHERE id = $1`,
  };

  const drainOne: Outbox['drainOne'] = (o) =>
    inTransaction(o.pool, async (client) => {
      const found = (await client.query(sql.claim, [o.scope, o.runId ?? null])).rows[0];
      if (!found) return null;
      const row = toRow(found);
      const ctx: StepContext = {
        run: row.run,
        step: 'DELIVER',
        attempt: row.attempts + 1,
        idempotencyKey: row.key,
        worker: o.worker,
      };
      try {
        const receipt = await sendDelivery(row.mail, o.ports, ctx);
        await client.query(sql.sent, [row.id, JSON.stringify(receipt), o.worker]);
        return 'sent';
      } catch (err) {
        const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        const retry = isTransient(err) && ctx.attempt < OUTBOX_MAX_ATTEMPTS;
        await client.query(sql.failed, [row.id, retry ? 'pending' : 'dead', message, outboxBackoffMs(ctx.attempt)]);
        o.log?.(
          `outbox: mail for run ${row.run.runId} ${retry ? `will be retried (send ${ctx.attempt} failed)` : `given up after ${ctx.attempt} send(s)`}: ${message}`,
        );
        return retry ? 'retry' : 'dead';
      }
    });

  const unsent: Outbox['unsent'] = async (db, scope, runId) =>
    (await db.query(sql.unsent, [scope, runId ?? null])).rows[0].n as number;

  return {
    table,
    async enqueue(db, row) {
      await db.query(sql.insert, [
        row.scope,
        row.key,
        row.run.runId,
        JSON.stringify(row.run),
        JSON.stringify(row.mail),
      ]);
    },
    async byKey(db, key) {
      const r = (await db.query(sql.byKey, [key])).rows[0];
      return r ? toRow(r) : null;
    },
    async forRun(db, runId) {
      return (await db.query(sql.forRun, [runId])).rows.map(toRow);
    },
    async forRuns(db, runIds) {
      const out = new Map<string, OutboxRow[]>();
      for (const row of (await db.query(sql.forRuns, [runIds])).rows.map(toRow)) {
        const list = out.get(row.run.runId);
        if (list) list.push(row);
        else out.set(row.run.runId, [row]);
      }
      return out;
    },
    unsent,
    drainOne,
    async awaitSent({ key, pollMs, ...o }) {
      for (;;) {
        const row = await this.byKey(o.pool, key);
        if (!row) throw new PermanentError(`no outbox row for key ${key}`, 'outbox-row-missing');
        if (row.status === 'sent' && row.receipt)
          return { delivery: { messageId: row.receipt.id, duplicate: row.receipt.duplicate, to: row.mail.to } };
        if (row.status === 'dead')
          throw new PermanentError(
            `delivery gave up after ${row.attempts} send(s): ${row.lastError}`,
            'delivery-failed',
          );
        if ((await drainOne(o)) === null) await new Promise((r) => setTimeout(r, pollMs ?? 200));
      }
    },
    async drain(o) {
      const result: DrainResult = { sent: 0, retry: 0, dead: 0 };
      while (!o.signal?.aborted) {
        const outcome = await drainOne(o);
        if (outcome) {
          result[outcome] += 1;
          if (outcome !== 'retry') continue;
        }
        if (o.untilEmpty && (await unsent(o.pool, o.scope, o.runId)) === 0) break;
        await new Promise((r) => setTimeout(r, o.pollMs ?? 200));
      }
      return result;
    },
  };
}
