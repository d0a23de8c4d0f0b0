import {
  createOutbox,
  createStepErrors,
  outboxTableSql,
  registeredRuns,
  runMigrations,
  stepErrorsTableSql,
} from '@vendor-review/worker-io';
import pg from 'pg';

/**
 * What we keep beside Restate's own journal (which lives in its server): the runs registered
 * before any worker started one (a run with no invocation yet is pending, not unknown), the
 * hardened outbox and the hardened own-error counts.
 */
const MIGRATIONS = [
  `CREATE TABLE restate_runs (
     run_id      TEXT PRIMARY KEY,
     variant     TEXT NOT NULL CHECK (variant IN ('naive', 'hardened')),
     granularity TEXT NOT NULL CHECK (granularity IN ('coarse', 'per-requirement', 'fine')),
     request     JSONB NOT NULL,
     created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
   );`,
  outboxTableSql('restate_outbox'),
  stepErrorsTableSql('restate_step_errors'),
  // The server refuses an approval for a service no endpoint has registered yet: a decision that
  // comes before any worker started the run waits here, and the worker that starts it sends it on.
  `ALTER TABLE restate_runs ADD COLUMN approval JSONB;`,
];

export const RESTATE_RUNS = registeredRuns('restate_runs');
export const RESTATE_OUTBOX = createOutbox('restate_outbox');
export const RESTATE_STEP_ERRORS = createStepErrors('restate_step_errors');

export async function setupDatabase(databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await runMigrations(pool, { table: 'restate_migrations', lockKey: 7_411_232, migrations: MIGRATIONS });
  } finally {
    await pool.end();
  }
}
