import type pg from 'pg';

/**
 * Numbered schema migrations, in the manner of langgraphjs' checkpoint-postgres: an ordered list
 * of SQL scripts, each applied once and recorded by its number (1-based) in a table of its own.
 * Unlike that one, each script and its record commit in one transaction (a crash between them
 * cannot leave a change applied but unrecorded), and concurrent runners (parallel test files,
 * several workers starting at once) queue on an advisory lock instead of racing.
 *
 * The list is append-only: a database records only numbers, so editing a shipped entry never
 * reaches a database that already has it.
 */
export interface MigrationPlan {
  /** Where applied numbers are recorded; a plain identifier, created when missing. */
  table: string;
  /** pg_advisory_lock key; the same key for every runner of this list. */
  lockKey: number;
  /** Entry i is migration i + 1. Each runs inside a transaction (so no CREATE INDEX CONCURRENTLY). */
  migrations: readonly string[];
}

export interface MigrationResult {
  /** The numbers this call applied, in order; empty when the database was up to date. */
  applied: number[];
  /** The highest number now recorded. */
  version: number;
}

type Queryable = Pick<pg.ClientBase, 'query' | 'escapeIdentifier'>;

function isPool(db: pg.Pool | pg.ClientBase): db is pg.Pool {
  return 'idleCount' in db;
}

/**
 * Applies the migrations of `plan` that the database has not recorded yet. Takes a pool (one of
 * its clients is used for the whole run) or a connected client, which must not be inside a transaction.
 */
export async function runMigrations(db: pg.Pool | pg.ClientBase, plan: MigrationPlan): Promise<MigrationResult> {
  if (!isPool(db)) return migrate(db, plan);
  const client = await db.connect();
  try {
    return await migrate(client, plan);
  } finally {
    client.release();
  }
}

async function migrate(client: Queryable, plan: MigrationPlan): Promise<MigrationResult> {
  const table = client.escapeIdentifier(plan.table);
  // Session-level, so it spans the per-migration transactions; re-entrant for a caller already holding it.
  await client.query('SELECT pg_advisory_lock($1)', [plan.lockKey]);
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (v INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ v: number | null }>(`SELECT max(v) AS v FROM ${table}`);
    // Higher than this list (newer code migrated it, e.g. mid rolling deploy): nothing to do here.
    const current = rows[0]?.v ?? 0;
    const applied: number[] = [];
    for (let v = current + 1; v <= plan.migrations.length; v += 1) {
      await client.query('BEGIN');
      try {
        await client.query(plan.migrations[v - 1]!);
        await client.query(`INSERT INTO ${table} (v) VALUES ($1)`, [v]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${v} of ${plan.table} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(v);
    }
    return { applied, version: Math.max(current, plan.migrations.length) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [plan.lockKey]).catch(() => undefined);
  }
}
