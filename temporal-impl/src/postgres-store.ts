/**
 * Every SQL statement of the Temporal side, in one place: the delivery outbox and the dead
 * letters. Tables are prefixed `temporal_` so they live beside the LangGraph side's tables in the
 * same database without clashing.
 */
import pg from 'pg';
import type { Mail, Receipt } from '@vendor-review/domain';

export const OUTBOX_TABLE = 'temporal_outbox';
export const DEAD_LETTER_TABLE = 'temporal_dead_letters';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${OUTBOX_TABLE} (
  id              bigserial PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE,
  run_id          text NOT NULL,
  workflow_id     text NOT NULL,
  runtime_run_id  text NOT NULL,
  mail            jsonb NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  receipt         jsonb,
  sent_by         text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
-- The drainer beside the workers of a task queue delivers that queue's mail only: a worker whose
-- crash plan names after-deliver must never die sending another queue's (another scenario's) mail.
ALTER TABLE ${OUTBOX_TABLE} ADD COLUMN IF NOT EXISTS task_queue text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS ${OUTBOX_TABLE}_due ON ${OUTBOX_TABLE} (task_queue, next_attempt_at) WHERE status = 'pending';
CREATE TABLE IF NOT EXISTS ${DEAD_LETTER_TABLE} (
  id             bigserial PRIMARY KEY,
  run_id         text NOT NULL,
  workflow_id    text NOT NULL,
  runtime_run_id text NOT NULL,
  step           text NOT NULL,
  activity_id    text NOT NULL,
  input          jsonb NOT NULL,
  error          text NOT NULL,
  attempts       integer NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  -- one dead letter per execution: a retried recordDeadLetter activity must not add a second
  UNIQUE (runtime_run_id)
);
`;

export interface RunRef {
  runId: string;
  workflowId: string;
  runtimeRunId: string;
}

export interface OutboxRow {
  id: number;
  key: string;
  run: RunRef;
  mail: Mail;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  receipt: Receipt | null;
  sentBy: string | null;
}

export interface DeadLetterEntry {
  run: RunRef;
  step: string;
  activityId: string;
  input: unknown;
  error: string;
  attempts: number;
}

export interface DeadLetterRow extends DeadLetterEntry {
  createdAt: Date;
}

/** What one drain pass did; 'empty' means nothing was due. */
export type DrainOutcome = 'sent' | 'retry' | 'failed' | 'empty';

export interface SendFailure {
  error: string;
  permanent: boolean;
}

/** Create the tables. Safe to call from several processes at once (serialised by an advisory lock). */
export async function setupDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('temporal_impl_schema'))`);
    await client.query(SCHEMA);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

function toOutboxRow(r: Record<string, unknown>): OutboxRow {
  return {
    id: Number(r.id),
    key: r.idempotency_key as string,
    run: { runId: r.run_id as string, workflowId: r.workflow_id as string, runtimeRunId: r.runtime_run_id as string },
    mail: r.mail as Mail,
    status: r.status as OutboxRow['status'],
    attempts: r.attempts as number,
    lastError: (r.last_error as string | null) ?? null,
    receipt: (r.receipt as Receipt | null) ?? null,
    sentBy: (r.sent_by as string | null) ?? null,
  };
}

export interface Store {
  /** Write the mail once: a retried activity with the same key inserts nothing. */
  enqueueDelivery(row: { key: string; run: RunRef; mail: Mail; taskQueue: string }): Promise<void>;
  delivery(key: string): Promise<OutboxRow | null>;
  outbox(runId: string): Promise<OutboxRow[]>;
  /**
   * Claim one due row with FOR UPDATE SKIP LOCKED and hand it to `send` while the row stays
   * locked, so two drainers never send the same row at once. If this process dies during the
   * send, the transaction dies with it and the row is due again for the next drainer, which
   * sends it with the same idempotency key.
   */
  drainOne(
    taskQueue: string,
    worker: string,
    send: (row: OutboxRow) => Promise<Receipt>,
    classify: (err: unknown) => SendFailure,
  ): Promise<DrainOutcome>;
  recordDeadLetter(entry: DeadLetterEntry): Promise<void>;
  deadLetters(runId: string): Promise<DeadLetterRow[]>;
  close(): Promise<void>;
}

/** After this many failed sends the row is given up and awaitDelivery reports the failure. */
export const OUTBOX_MAX_ATTEMPTS = 8;

export function openStore(databaseUrl: string): Store {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // An idle client that loses its server must not crash the worker process.
  pool.on('error', (err) => process.stderr.write(`postgres pool error: ${err.message}\n`));

  return {
    async enqueueDelivery({ key, run, mail, taskQueue }) {
      await pool.query(
        `INSERT INTO ${OUTBOX_TABLE} (idempotency_key, run_id, workflow_id, runtime_run_id, mail, task_queue)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING`,
        [key, run.runId, run.workflowId, run.runtimeRunId, JSON.stringify(mail), taskQueue],
      );
    },

    async delivery(key) {
      const { rows } = await pool.query(`SELECT * FROM ${OUTBOX_TABLE} WHERE idempotency_key = $1`, [key]);
      return rows[0] ? toOutboxRow(rows[0]) : null;
    },

    async outbox(runId) {
      const { rows } = await pool.query(`SELECT * FROM ${OUTBOX_TABLE} WHERE run_id = $1 ORDER BY id`, [runId]);
      return rows.map(toOutboxRow);
    },

    async drainOne(taskQueue, worker, send, classify) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query(
          `SELECT * FROM ${OUTBOX_TABLE} WHERE task_queue = $1 AND status = 'pending' AND next_attempt_at <= now()
           ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [taskQueue],
        );
        if (!rows[0]) {
          await client.query('COMMIT');
          return 'empty';
        }
        const row = toOutboxRow(rows[0]);
        let outcome: DrainOutcome;
        try {
          const receipt = await send(row);
          await client.query(
            `UPDATE ${OUTBOX_TABLE} SET status = 'sent', attempts = attempts + 1, receipt = $2, sent_by = $3, sent_at = now(), last_error = NULL WHERE id = $1`,
            [row.id, JSON.stringify(receipt), worker],
          );
          outcome = 'sent';
        } catch (err) {
          const { error, permanent } = classify(err);
          const giveUp = permanent || row.attempts + 1 >= OUTBOX_MAX_ATTEMPTS;
          await client.query(
            `UPDATE ${OUTBOX_TABLE} SET attempts = attempts + 1, last_error = $2, status = $3,
               next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1`,
            [row.id, error, giveUp ? 'failed' : 'pending', Math.min(0.2 * 2 ** row.attempts, 5)],
          );
          outcome = giveUp ? 'failed' : 'retry';
        }
        await client.query('COMMIT');
        return outcome;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },

    async recordDeadLetter(e) {
      await pool.query(
        `INSERT INTO ${DEAD_LETTER_TABLE} (run_id, workflow_id, runtime_run_id, step, activity_id, input, error, attempts)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (runtime_run_id) DO NOTHING`,
        [
          e.run.runId,
          e.run.workflowId,
          e.run.runtimeRunId,
          e.step,
          e.activityId,
          JSON.stringify(e.input ?? null),
          e.error,
          e.attempts,
        ],
      );
    },

    async deadLetters(runId) {
      const { rows } = await pool.query(`SELECT * FROM ${DEAD_LETTER_TABLE} WHERE run_id = $1 ORDER BY id`, [runId]);
      return rows.map((r) => ({
        run: { runId: r.run_id, workflowId: r.workflow_id, runtimeRunId: r.runtime_run_id },
        step: r.step,
        activityId: r.activity_id,
        input: r.input,
        error: r.error,
        attempts: r.attempts,
        createdAt: r.created_at,
      }));
    },

    async close() {
      await pool.end();
    },
  };
}
