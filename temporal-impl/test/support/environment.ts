import { Client, Connection } from '@temporalio/client';
import { freshDatabase, startTemporal, type FreshDatabase, type TemporalHandle } from '@vendor-review/domain/infra';
import { startWorld, type World } from '@vendor-review/domain/world';
import { sdkDownloadedTemporal, setupDatabase } from '../../src/index.ts';

export const POSTGRES_SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestEnvironment {
  temporal: TemporalHandle;
  connection: Connection;
  client: Client;
  world: World;
  db: FreshDatabase;
  stop(): Promise<void>;
}

/**
 * One real dev server (spawned from the CLI, never an external TEMPORAL_ADDRESS: some tests kill
 * it), one world and one fresh database per test file.
 */
export async function startTestEnvironment(o: { modelLatencyMs?: number } = {}): Promise<TestEnvironment> {
  const { TEMPORAL_ADDRESS: _ignored, ...env } = process.env;
  const [temporal, world, db] = await Promise.all([
    startTemporal({ env, sdkFallback: sdkDownloadedTemporal }),
    startWorld({ modelLatencyMs: o.modelLatencyMs ?? 300 }),
    freshDatabase(POSTGRES_SERVER_URL, 'tp_test'),
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
    async stop() {
      await connection.close().catch(() => {});
      await Promise.allSettled([temporal.stop(), world.stop()]);
      await db.drop().catch(() => {});
    },
  };
}

let queueCounter = 0;
/** A task queue per scenario, so one scenario's dying worker never takes another's tasks. */
export function taskQueueFor(label: string): string {
  return `tq-${label}-${process.pid}-${++queueCounter}-${Math.random().toString(36).slice(2, 6)}`;
}
