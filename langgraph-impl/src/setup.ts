import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { withPool } from './pool.ts';
import { SCHEMA_SQL } from './sql.ts';

const SETUP_LOCK = 7_411_203; // any constant; serialises concurrent setups (parallel test files, several workers)

/** PostgresSaver's tables and migrations, then ours. Safe to call any number of times, concurrently. */
export async function setupDatabase(databaseUrl: string): Promise<void> {
  await withPool(databaseUrl, async (pool) => {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK]);
      await new PostgresSaver(pool).setup();
      await client.query(SCHEMA_SQL);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SETUP_LOCK]).catch(() => {});
      client.release();
    }
  });
}
