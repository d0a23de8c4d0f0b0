import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '@vendor-review/domain/infra';
import { openStore, setupDatabase, type Store } from './postgres-store.ts';

const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
let db: FreshDatabase;
let a: Store;
let b: Store;
const run = { runId: 'rev-x-1', workflowId: 'vendor-review/rev-x-1', runtimeRunId: 'r-1' };
const mail = { to: 'p@example.com', subject: 's', body: 'b' };
const classify = (err: unknown) => ({ error: String(err), permanent: false });

beforeAll(async () => {
  db = await freshDatabase(SERVER, 'tp_store');
  // Several workers start at once; the schema setup must not trip over itself.
  await Promise.all([setupDatabase(db.url), setupDatabase(db.url), setupDatabase(db.url)]);
  a = openStore(db.url);
  b = openStore(db.url);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

describe('outbox', () => {
  it('a retried enqueue with the same key writes one row', async () => {
    await a.enqueueDelivery({ key: 'k-once', run, mail, taskQueue: 'q1' });
    await a.enqueueDelivery({ key: 'k-once', run, mail, taskQueue: 'q1' });
    expect((await a.outbox(run.runId)).filter((r) => r.key === 'k-once')).toHaveLength(1);
  });

  it('two drainers never send the same row: the first holds it locked, the second skips it', async () => {
    while ((await a.drainOne('q1', 'setup', async () => ({ id: 'msg-0', duplicate: false }), classify)) !== 'empty');
    await a.enqueueDelivery({ key: 'k-race', run: { ...run, runId: 'rev-race' }, mail, taskQueue: 'q1' });
    let release!: () => void;
    const sent: string[] = [];
    const first = a.drainOne(
      'q1',
      'A',
      async (row) => {
        sent.push(`A:${row.key}`);
        await new Promise<void>((r) => (release = r));
        return { id: 'msg-1', duplicate: false };
      },
      classify,
    );
    await new Promise((r) => setTimeout(r, 100));
    const second = await b.drainOne(
      'q1',
      'B',
      async (row) => {
        sent.push(`B:${row.key}`);
        return { id: 'msg-2', duplicate: false };
      },
      classify,
    );
    release();
    expect(await first).toBe('sent');
    expect(second).toBe('empty');
    expect(sent).toEqual(['A:k-race']);
    expect(await a.delivery('k-race')).toMatchObject({
      status: 'sent',
      attempts: 1,
      sentBy: 'A',
      receipt: { id: 'msg-1' },
    });
  });

  it('a failed send is counted and retried later; a permanent one is given up', async () => {
    await a.enqueueDelivery({ key: 'k-fail', run: { ...run, runId: 'rev-fail' }, mail, taskQueue: 'q2' });
    const boom = async () => {
      throw new Error('503');
    };
    expect(await a.drainOne('q2', 'A', boom, classify)).toBe('retry');
    expect(await a.delivery('k-fail')).toMatchObject({ status: 'pending', attempts: 1, lastError: 'Error: 503' });
    await new Promise((r) => setTimeout(r, 300));
    expect(await a.drainOne('q2', 'A', boom, () => ({ error: '422', permanent: true }))).toBe('failed');
    expect(await a.delivery('k-fail')).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it("a drainer claims only its own task queue's mail", async () => {
    await a.enqueueDelivery({ key: 'k-other', run: { ...run, runId: 'rev-other' }, mail, taskQueue: 'q-other' });
    expect(await a.drainOne('q-mine', 'A', async () => ({ id: 'x', duplicate: false }), classify)).toBe('empty');
    expect(await a.delivery('k-other')).toMatchObject({ status: 'pending', attempts: 0 });
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
    await a.recordDeadLetter(entry);
    await a.recordDeadLetter(entry);
    const rows = await a.deadLetters(run.runId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      step: 'SAVE_PROGRESS',
      attempts: 1,
      input: { pending: ['sso'] },
      error: 'PermanentError: 422',
    });
  });
});
