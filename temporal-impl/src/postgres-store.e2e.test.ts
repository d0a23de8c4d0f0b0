import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '@vendor-review/testbed';
import { runMigrations } from '@vendor-review/worker-io';
import { openStore, setupDatabase, TEMPORAL_MIGRATIONS, type Store } from './postgres-store.ts';

const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let db: FreshDatabase;
let store: Store;
const run = { runId: 'rev-x-1', workflowId: 'vendor-review/rev-x-1', runtimeRunId: 'r-1' };
const mail = { to: 'p@example.com', subject: 's', body: 'b' };

beforeAll(async () => {
  db = await freshDatabase(SERVER, 'tp_store');
  // Several workers start at once; the schema setup must not trip over itself.
  await Promise.all([setupDatabase(db.url), setupDatabase(db.url), setupDatabase(db.url)]);
  store = openStore(db.url);
});

afterAll(async () => {
  await store?.close();
  await db?.drop();
});

describe('the outbox, through the store', () => {
  it('a retried enqueue with the same key writes one row, scoped to its task queue', async () => {
    await store.enqueueDelivery({ key: 'k-once', run, mail, taskQueue: 'q1' });
    await store.enqueueDelivery({ key: 'k-once', run, mail, taskQueue: 'q1' });
    const rows = await store.outbox(run.runId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      scope: 'q1',
      status: 'pending',
      run: { runId: run.runId, runtime: 'temporal', runtimeId: run.workflowId, runtimeRunId: run.runtimeRunId },
    });
  });
});

describe('dead letters', () => {
  it('records input, error and attempts once per execution', async () => {
    const entry = {
      run,
      step: 'SAVE_PROGRESS',
      activityId: 'SAVE_PROGRESS:sso',
      input: { pending: ['sso'] },
      error: 'PermanentError: 422',
      attempts: 1,
    };
    await store.recordDeadLetter(entry);
    await store.recordDeadLetter(entry);
    const rows = await store.deadLetters(run.runId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      step: 'SAVE_PROGRESS',
      attempts: 1,
      input: { pending: ['sso'] },
      error: 'PermanentError: 422',
    });
  });
});

describe('upgrading a database set up by the previous release', () => {
  it('carries every outbox row over to the shared layout, pending mail included', async () => {
    const old = await freshDatabase(SERVER, 'tp_upgrade');
    const client = new pg.Client({ connectionString: old.url });
    await client.connect();
    try {
      await runMigrations(client, {
        table: 'temporal_migrations',
        lockKey: 1,
        migrations: TEMPORAL_MIGRATIONS.slice(0, 1),
      });
      await client.query(
        `INSERT INTO temporal_outbox (idempotency_key, run_id, workflow_id, runtime_run_id, mail, status, attempts, task_queue, receipt)
         VALUES ('k-pending', 'rev-a', 'vendor-review/rev-a', 'ra', $1, 'pending', 0, 'q-a', NULL),
                ('k-failed', 'rev-b', 'vendor-review/rev-b', 'rb', $1, 'failed', 8, 'q-b', NULL),
                ('k-sent', 'rev-c', 'vendor-review/rev-c', 'rc', $1, 'sent', 1, 'q-c', '{"id":"msg-9","duplicate":false}')`,
        [JSON.stringify(mail)],
      );
    } finally {
      await client.end();
    }
    await setupDatabase(old.url);
    const upgraded = openStore(old.url);
    try {
      expect(await upgraded.delivery('k-pending')).toMatchObject({
        scope: 'q-a',
        status: 'pending',
        mail,
        run: { runtimeRunId: 'ra' },
      });
      expect(await upgraded.delivery('k-failed')).toMatchObject({ scope: 'q-b', status: 'dead', attempts: 8 });
      expect(await upgraded.delivery('k-sent')).toMatchObject({
        status: 'sent',
        receipt: { id: 'msg-9', duplicate: false },
      });
    } finally {
      await upgraded.close();
      await old.drop();
    }
  });
});
