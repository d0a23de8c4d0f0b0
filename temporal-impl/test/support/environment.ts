import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freshDatabase, startPostgres, type FreshDatabase, type PostgresHandle } from '@vendor-review/testbed';
import { sdkDownloadedTemporal, startTemporal, type TemporalHandle } from '../../harness/index.ts';
import { startWorld, type World } from '@vendor-review/world';
import { setupDatabase } from '../../src/index.ts';

export const POSTGRES_SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestEnvironment {
  temporal: TemporalHandle;
  connection: Connection;
  client: Client;
  world: World;
  db: FreshDatabase;
  /** With `restartable`: the embedded PostgreSQL that holds `db`, ours to restart. */
  postgres: PostgresHandle | null;
  stop(): Promise<void>;
}

/**
 * One real dev server (spawned from the CLI, never an external TEMPORAL_ADDRESS: some tests kill
 * it), one world and one fresh database per test file. `restartable`: the dev server keeps its
 * state in a database file and the database is on an embedded PostgreSQL of its own, so the
 * restart hazard can restart both and lose nothing (whatever DATABASE_URL says).
 */
export async function startTestEnvironment(
  o: { modelLatencyMs?: number; restartable?: boolean } = {},
): Promise<TestEnvironment> {
  const { TEMPORAL_ADDRESS: _ignored, ...env } = process.env;
  const dir = o.restartable ? await mkdtemp(join(tmpdir(), 'vendor-review-temporal-')) : null;
  const ownDb = async (): Promise<[PostgresHandle, FreshDatabase]> => {
    const server = await startPostgres({ env: {} });
    return [server, { url: server.url, name: new URL(server.url).pathname.slice(1), drop: () => server.stop() }];
  };
  const [temporal, world, [postgres, db]] = await Promise.all([
    startTemporal({
      env,
      sdkFallback: sdkDownloadedTemporal,
      ...(dir ? { dbFilename: join(dir, 'temporal.db') } : {}),
    }),
    startWorld({ modelLatencyMs: o.modelLatencyMs ?? 300 }),
    o.restartable ? ownDb() : freshDatabase(POSTGRES_SERVER_URL, 'tp_test').then((d) => [null, d] as const),
  ]);
  await setupDatabase(db.url);
  const connection = await Connection.connect({ address: temporal.address });
  const client = new Client({ connection, namespace: temporal.namespace });
  return {
    temporal,
    connection,
    client,
    world,
    db,
    postgres,
    async stop() {
      await connection.close().catch(() => {});
      await Promise.allSettled([temporal.stop(), world.stop()]);
      await db.drop().catch(() => {});
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

let queueCounter = 0;
/** A task queue per scenario, so one scenario's dying worker never takes another's tasks. */
export function taskQueueFor(label: string): string {
  return `tq-${label}-${process.pid}-${++queueCounter}-${Math.random().toString(36).slice(2, 6)}`;
}
