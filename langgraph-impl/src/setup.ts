import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { runMigrations } from '@vendor-review/worker-io';
import { withPool } from './pool.ts';
import { LG_MIGRATIONS, TABLES } from './sql.ts';

const SETUP_LOCK = 7_411_203; // any constant; serialises concurrent setups (parallel test files, several workers)

/**
 * PostgresSaver's tables and migrations, then ours (LG_MIGRATIONS, after theirs: the provenance
 * table references `checkpoints`). Safe to call any number of times, concurrently: PostgresSaver's
 * setup takes no lock of its own, so ours is held around both (runMigrations takes it again, which
 * a session that holds it may).
 */
export async function setupDatabase(databaseUrl: string): Promise<void> {
  await withPool(databaseUrl, async (pool) => {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK]);
      await new PostgresSaver(pool).setup();
      await runMigrations(client, { table: TABLES.migrations, lockKey: SETUP_LOCK, migrations: LG_MIGRATIONS });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SETUP_LOCK]).catch(() => {});
      client.release();
    }
  });
}
