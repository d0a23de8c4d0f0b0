import { freshDatabase, type FreshDatabase } from '@vendor-review/testbed';
import { setupDatabase } from '../src/setup.ts';

/** The server tests create their databases on; a fresh database per test file keeps files independent. */
export const SERVER_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database (testbed's) with LangGraph's tables in it. */
export async function freshTestDatabase(prefix: string): Promise<FreshDatabase> {
  const db = await freshDatabase(SERVER_URL, `lg_test_${prefix}`);
  await setupDatabase(db.url);
  return db;
}
