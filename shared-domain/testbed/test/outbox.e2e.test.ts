import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransientError, PermanentError, type Mail, type Ports, type Receipt } from '@vendor-review/pipeline';
import { createOutbox, OUTBOX_MAX_ATTEMPTS, outboxTableSql } from '@vendor-review/worker-io';
import { freshDatabase, type FreshDatabase } from '../src/postgres-databases.ts';

const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const outbox = createOutbox('test_outbox');
const mail: Mail = { to: 'p@example.com', subject: 'review', body: 'hello' };
const run = (runId: string) => ({ runId, runtime: 'temporal' as const, runtimeId: `wf-${runId}` });
let db: FreshDatabase;
let pool: pg.Pool;

/** A mailer whose sends are scripted per call; it records the key each send carried. */
function mailer(script: (n: number) => Promise<Receipt>): Ports & { keys: (string | undefined)[] } {
  const keys: (string | undefined)[] = [];
  const unused = () => {
    throw new Error('not used by the outbox');
  };
  return {
    keys,
    web: { get: unused },
    model: { complete: unused },
    tracker: { note: unused },
    approver: { notify: unused },
    mailer: {
      send: async (_mail, meta) => {
        keys.push(meta.idempotencyKey);
        return script(keys.length);
      },
    },
  };
}

beforeAll(async () => {
  db = await freshDatabase(SERVER, 'outbox');
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  await pool.query(outboxTableSql('test_outbox'));
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('the outbox', () => {
  it('a re-executed enqueue with the same key writes one row', async () => {
    const row = { scope: 's1', key: 'k-once', run: run('rev-once'), mail };
    await outbox.enqueue(pool, row);
    await outbox.enqueue(pool, row);
    expect(await outbox.forRun(pool, 'rev-once')).toHaveLength(1);
  });

  it('sends with the row key, records the receipt, and stops when nothing is left', async () => {
    await outbox.enqueue(pool, { scope: 's2', key: 'k-send', run: run('rev-send'), mail });
    const ports = mailer(async () => ({ id: 'msg-1', duplicate: false }));
    const result = await outbox.drain({ pool, ports, worker: 'D', scope: 's2', untilEmpty: true, pollMs: 10 });
    expect(result).toEqual({ sent: 1, retry: 0, dead: 0 });
    expect(ports.keys).toEqual(['k-send']);
    expect(await outbox.byKey(pool, 'k-send')).toMatchObject({
      status: 'sent',
      attempts: 1,
      sentBy: 'D',
      receipt: { id: 'msg-1' },
    });
  });

  it('two drainers never send the same row: the first holds it, the second skips it', async () => {
    await outbox.enqueue(pool, { scope: 's3', key: 'k-race', run: run('rev-race'), mail });
    let started!: () => void;
    let release!: () => void;
    const sending = new Promise<void>((r) => (started = r));
    const held = new Promise<void>((r) => (release = r));
    const a = mailer(async () => {
      started();
      await held;
      return { id: 'msg-a', duplicate: false };
    });
    const b = mailer(async () => ({ id: 'msg-b', duplicate: false }));
    const first = outbox.drainOne({ pool, ports: a, worker: 'A', scope: 's3' });
    await sending;
    expect(await outbox.drainOne({ pool, ports: b, worker: 'B', scope: 's3' })).toBeNull();
    release();
    expect(await first).toBe('sent');
    expect(b.keys).toEqual([]);
  });

  it('retries a transient failure with backoff, gives up a permanent one at once, the error kept', async () => {
    await outbox.enqueue(pool, { scope: 's4', key: 'k-503', run: run('rev-503'), mail });
    const flaky = mailer(async (n) => {
      if (n === 1) throw new TransientError('HTTP 503', 'http-503', 503);
      throw new PermanentError('HTTP 422', 'http-422', 422);
    });
    expect(await outbox.drainOne({ pool, ports: flaky, worker: 'A', scope: 's4' })).toBe('retry');
    expect(await outbox.byKey(pool, 'k-503')).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'TransientError: HTTP 503',
    });
    // Not due again until its backoff has passed.
    expect(await outbox.drainOne({ pool, ports: flaky, worker: 'A', scope: 's4' })).toBeNull();
    await pool.query(`UPDATE test_outbox SET next_attempt_at = now() WHERE idempotency_key = 'k-503'`);
    expect(await outbox.drainOne({ pool, ports: flaky, worker: 'A', scope: 's4' })).toBe('dead');
    expect(await outbox.byKey(pool, 'k-503')).toMatchObject({
      status: 'dead',
      attempts: 2,
      lastError: 'PermanentError: HTTP 422',
    });
  });

  it('a transient failure that never clears is given up at the cap', async () => {
    await outbox.enqueue(pool, { scope: 's5', key: 'k-cap', run: run('rev-cap'), mail });
    const down = mailer(async () => {
      throw new TransientError('HTTP 503', 'http-503', 503);
    });
    const outcomes: string[] = [];
    for (;;) {
      await pool.query(`UPDATE test_outbox SET next_attempt_at = now() WHERE idempotency_key = 'k-cap'`);
      const o = await outbox.drainOne({ pool, ports: down, worker: 'A', scope: 's5' });
      if (!o) break;
      outcomes.push(o);
    }
    expect(outcomes).toEqual([...Array(OUTBOX_MAX_ATTEMPTS - 1).fill('retry'), 'dead']);
  });

  it("a drainer takes only its own scope's (and, when asked, its own run's) rows", async () => {
    await outbox.enqueue(pool, { scope: 'other', key: 'k-other', run: run('rev-other'), mail });
    await outbox.enqueue(pool, { scope: 'mine', key: 'k-mine-2', run: run('rev-mine-2'), mail });
    const ports = mailer(async () => ({ id: 'x', duplicate: false }));
    expect(await outbox.drainOne({ pool, ports, worker: 'A', scope: 'mine', runId: 'rev-mine-1' })).toBeNull();
    expect(await outbox.drainOne({ pool, ports, worker: 'A', scope: 'mine' })).toBe('sent');
    expect(await outbox.byKey(pool, 'k-other')).toMatchObject({ status: 'pending', attempts: 0 });
  });
});
