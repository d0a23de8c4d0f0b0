/**
 * Every SQL statement of the Temporal side, in one place: the delivery outbox (the shared outbox
 * module, in a table of its own) and the dead letters. Tables are prefixed `temporal_` so they live
 * beside the LangGraph side's tables in the same database without clashing.
 */
import pg from 'pg';
import type { Mail, Ports } from '@vendor-review/pipeline';
import {
  createOutbox,
  outboxTableSql,
  createStepErrors,
  runMigrations,
  stepErrorsTableSql,
  survivesConnectionLoss,
  type DrainResult,
  type OutboxRow,
} from '@vendor-review/worker-io';

export const OUTBOX_TABLE = 'temporal_outbox';
export const DEAD_LETTER_TABLE = 'temporal_dead_letters';
export const STEP_ERRORS_TABLE = 'temporal_step_errors';
const MIGRATIONS_TABLE = 'temporal_migrations';
const SETUP_LOCK = 7_411_204;

/** The shared outbox in Temporal's table; a row's scope is the task queue whose workers may deliver it. */
export const TM_OUTBOX = createOutbox(OUTBOX_TABLE);

/** Migration 1: the schema from before numbered migrations, all IF NOT EXISTS (a no-op where it exists). */
const SCHEMA_V1 = `
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

/**
 * Migration 2: the outbox takes the layout both runtimes share. Old rows are carried over (pending
 * mail included); the task queue becomes the scope, 'failed' becomes 'dead'.
 */
const OUTBOX_V2 = `
ALTER TABLE ${OUTBOX_TABLE} RENAME TO ${OUTBOX_TABLE}_v1;
DROP INDEX IF EXISTS ${OUTBOX_TABLE}_due;
${outboxTableSql(OUTBOX_TABLE)}
INSERT INTO ${OUTBOX_TABLE} (scope, idempotency_key, run_id, run, mail, status, attempts, next_attempt_at, last_error, receipt, sent_by, created_at, sent_at)
SELECT task_queue, idempotency_key, run_id,
  jsonb_build_object('runId', run_id, 'runtime', 'temporal', 'runtimeId', workflow_id, 'runtimeRunId', runtime_run_id),
  mail, CASE status WHEN 'failed' THEN 'dead' ELSE status END, attempts, next_attempt_at, last_error, receipt, sent_by, created_at, sent_at
FROM ${OUTBOX_TABLE}_v1 ORDER BY id;
DROP TABLE ${OUTBOX_TABLE}_v1;
`;

/**
 * Migration 3: the step's own errors, keyed by workflow run and activity id (the hardened retry
 * rule's count, own-errors.ts): the server's attempt number counts lost workers too.
 */
const STEP_ERRORS_V3 = stepErrorsTableSql(STEP_ERRORS_TABLE);

export const TEMPORAL_MIGRATIONS: readonly string[] = [SCHEMA_V1, OUTBOX_V2, STEP_ERRORS_V3];

const STEP_ERRORS = createStepErrors(STEP_ERRORS_TABLE);

export interface RunRef {
  runId: string;
  workflowId: string;
  runtimeRunId: string;
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

/** Creates or upgrades the tables. Safe to call from several processes at once (an advisory lock serialises them). */
export async function setupDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await runMigrations(client, { table: MIGRATIONS_TABLE, lockKey: SETUP_LOCK, migrations: TEMPORAL_MIGRATIONS });
  } finally {
    await client.end();
  }
}

export interface Store {
  /** Write the mail once: a retried activity with the same key inserts nothing. */
  enqueueDelivery(row: { key: string; run: RunRef; mail: Mail; taskQueue: string }): Promise<void>;
  delivery(key: string): Promise<OutboxRow | null>;
  outbox(runId: string): Promise<OutboxRow[]>;
  /** Delivers the task queue's due mail until the signal aborts (a drainer beside the worker). */
  drain(o: {
    ports: Ports;
    worker: string;
    taskQueue: string;
    signal: AbortSignal;
    log?: (line: string) => void;
  }): Promise<DrainResult>;
  /**
   * Delivers this run's due mail now, unless a drainer holds it (the row is claimed with SKIP
   * LOCKED, so one of them sends): what the run's own activity does instead of waiting for the
   * drainer's next poll. False when there was nothing this call could send.
   */
  deliverRun(o: { ports: Ports; worker: string; taskQueue: string; runId: string }): Promise<boolean>;
  recordDeadLetter(entry: DeadLetterEntry): Promise<void>;
  /** Counts one more own error of an activity (keyed by workflow run and activity id); returns the count so far. */
  recordStepError(o: { runtimeRunId: string; activityId: string; error: string }): Promise<number>;
  deadLetters(runId: string): Promise<DeadLetterRow[]>;
  close(): Promise<void>;
}

export function openStore(databaseUrl: string): Store {
  // A client that loses its server, idle or checked out (the outbox holds one across the send), must
  // not crash the worker process: the drainer retries once PostgreSQL is back.
  const pool = survivesConnectionLoss(new pg.Pool({ connectionString: databaseUrl, max: 4 }));
  pool.on('error', (err) => process.stderr.write(`postgres pool error: ${err.message}\n`));

  return {
    async enqueueDelivery({ key, run, mail, taskQueue }) {
      await TM_OUTBOX.enqueue(pool, {
        scope: taskQueue,
        key,
        run: { runId: run.runId, runtime: 'temporal', runtimeId: run.workflowId, runtimeRunId: run.runtimeRunId },
        mail,
      });
    },
    delivery: (key) => TM_OUTBOX.byKey(pool, key),
    outbox: (runId) => TM_OUTBOX.forRun(pool, runId),
    drain: ({ ports, worker, taskQueue, signal, log }) =>
      TM_OUTBOX.drain({ pool, ports, worker, scope: taskQueue, signal, ...(log ? { log } : {}) }),
    deliverRun: async ({ ports, worker, taskQueue, runId }) =>
      (await TM_OUTBOX.drainOne({ pool, ports, worker, scope: taskQueue, runId })) !== null,

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

    recordStepError: ({ runtimeRunId, activityId, error }) =>
      STEP_ERRORS.record(pool, { runKey: runtimeRunId, stepKey: activityId, error }),

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
