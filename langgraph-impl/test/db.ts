import { freshDatabase, type FreshDatabase } from '@vendor-review/testbed';
import type { Ports } from '@vendor-review/pipeline';
import { executeRun, type ExecuteOptions } from '../src/execute-run.ts';
import { withPool } from '../src/pool.ts';
import { setupDatabase } from '../src/setup.ts';
import { fakeSteps } from './fakes.ts';

/** The server tests create their databases on; a fresh database per test file keeps files independent. */
export const SERVER_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database (testbed's) with LangGraph's tables in it. */
export async function freshTestDatabase(prefix: string): Promise<FreshDatabase> {
  const db = await freshDatabase(SERVER_URL, `lg_test_${prefix}`);
  await setupDatabase(db.url);
  return db;
}

/** A run executed in this process on the fake steps, on a pool of its own, as worker T (a 5 s lease). */
export function executeOnFakes(
  databaseUrl: string,
  runId: string,
  ports: Ports,
  extra: Partial<ExecuteOptions> = {},
): ReturnType<typeof executeRun> {
  return withPool(databaseUrl, (pool) =>
    executeRun({ pool, runId, worker: 'T', ports, leaseTtlMs: 5_000, drainOutbox: true, steps: fakeSteps, ...extra }),
  );
}
