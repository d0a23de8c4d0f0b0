import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { CheckpointSaverTestInitializer } from '@langchain/langgraph-checkpoint-validation';
import type pg from 'pg';
import { createPool } from '../src/pool.ts';
import { freshTestDatabase } from './db.ts';

/**
 * For LangGraph's checkpoint conformance suite: one database per saver, emptied before each
 * instance, since the suite requires that an instance never sees what an earlier one wrote
 * (deleting `checkpoints` takes their provenance rows with it).
 */
export function conformanceInitializer(
  name: string,
  make: (pool: pg.Pool) => BaseCheckpointSaver | Promise<BaseCheckpointSaver>,
): CheckpointSaverTestInitializer<BaseCheckpointSaver> {
  let db: Awaited<ReturnType<typeof freshTestDatabase>> | undefined;
  let pool: pg.Pool | undefined;
  return {
    checkpointerName: name,
    beforeAllTimeout: 60_000,
    async beforeAll() {
      db = await freshTestDatabase('conformance');
      pool = createPool(db.url);
    },
    async afterAll() {
      await pool?.end();
      await db?.drop();
    },
    async createCheckpointer() {
      if (!pool) throw new Error(`${name}: beforeAll did not run`);
      await pool.query('DELETE FROM checkpoint_writes; DELETE FROM checkpoint_blobs; DELETE FROM checkpoints');
      return make(pool);
    },
  };
}
