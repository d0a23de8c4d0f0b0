import { DBOS } from '@dbos-inc/dbos-sdk';
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
 * What we keep beside DBOS's own system tables (schema `dbos`, created by DBOS.migrate): the runs
 * the harness registered before any worker started one (a run with no workflow yet is pending,
 * not unknown), the hardened outbox and the hardened own-error counts. DBOS's tables are read only
 * through its client.
 */
const MIGRATIONS = [
  `CREATE TABLE dbos_runs (
     run_id     TEXT PRIMARY KEY,
     variant    TEXT NOT NULL CHECK (variant IN ('naive', 'hardened')),
     request    JSONB NOT NULL,
     created_at TIMESTAMPTZ NOT NULL DEFAULT now()
   );`,
  outboxTableSql('dbos_outbox'),
  stepErrorsTableSql('dbos_step_errors'),
  // DBOS.send refuses a destination workflow that does not exist yet: a decision that comes
  // before any worker started the run waits here, and the worker that starts it sends it on.
  `ALTER TABLE dbos_runs ADD COLUMN approval JSONB;`,
  `ALTER TABLE dbos_runs ADD COLUMN granularity TEXT NOT NULL DEFAULT 'fine'
     CHECK (granularity IN ('coarse', 'per-requirement', 'fine'));`,
];

export const DBOS_RUNS = registeredRuns('dbos_runs');
export const DBOS_OUTBOX = createOutbox('dbos_outbox');
export const DBOS_STEP_ERRORS = createStepErrors('dbos_step_errors');

/** Our tables, then DBOS's system schema, once, before any worker launches (concurrent launches would race to migrate). */
export async function setupDatabase(databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await runMigrations(pool, { table: 'dbos_migrations', lockKey: 7_411_231, migrations: MIGRATIONS });
  } finally {
    await pool.end();
  }
  await onStderr(() => DBOS.migrate(databaseUrl));
}

/**
 * DBOS.migrate announces itself ("Running DBOS system database migrations...") on stdout, which
 * the tools keep for their own output (`pnpm compare --json`, `pnpm bench --json`): while it runs,
 * what it writes there goes to stderr.
 */
async function onStderr<T>(fn: () => Promise<T>): Promise<T> {
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    return await fn();
  } finally {
    process.stdout.write = write;
  }
}
