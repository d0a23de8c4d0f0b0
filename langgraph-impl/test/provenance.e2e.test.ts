import { emptyCheckpoint, type Checkpoint, type CheckpointMetadata } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { STATE_SCHEMA_VERSION } from '@vendor-review/pipeline';
import { freshDatabase } from '@vendor-review/testbed';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewSaver, SERIALIZER_VERSION, UnsupportedSerializerError } from '../src/checkpointer.ts';
import { claimLease, FencedOutError, fencedPool } from '../src/lease.ts';
import { createPool } from '../src/pool.ts';
import { runRetention } from '../src/retention.ts';
import { createRun, loadRun } from '../src/runs.ts';
import { setupDatabase } from '../src/setup.ts';
import { LG_MIGRATIONS, SCHEMA_SQL } from '../src/sql.ts';
import { freshTestDatabase, SERVER_URL } from './db.ts';
import { sampleRequest } from './fakes.ts';

let db: { url: string; drop(): Promise<void> };
let pool: pg.Pool;
beforeAll(async () => {
  db = await freshTestDatabase('provenance');
  pool = createPool(db.url);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const META: CheckpointMetadata = { source: 'loop', step: 3, parents: {} };

/** A checkpoint holding review state at the current schema version (hardened reads it as is). */
function reviewCheckpoint(): Checkpoint {
  return {
    ...emptyCheckpoint(),
    channel_values: { schemaVersion: STATE_SCHEMA_VERSION },
    channel_versions: { schemaVersion: 1 },
  };
}

const at = (thread: string) => ({ configurable: { thread_id: thread, checkpoint_ns: '' } });

async function rows(sql: string, thread: string) {
  return (await pool.query(sql, [thread])).rows;
}
const provenanceOf = (thread: string) =>
  rows(
    `SELECT checkpoint_id, serializer, state_schema_version, writer, fencing_token FROM lg_checkpoint_provenance WHERE thread_id = $1`,
    thread,
  );
const checkpointsOf = (thread: string) =>
  rows(`SELECT checkpoint_id, metadata FROM checkpoints WHERE thread_id = $1`, thread);

describe('provenance beside the checkpoint', () => {
  it("stores the caller's metadata as given and what wrote it in its own row", async () => {
    const thread = `t-${crypto.randomUUID()}`;
    const lease = await claimLease(pool, thread, 'A#1', 60_000);
    const saver = new ReviewSaver(fencedPool(pool, lease), {
      variant: 'naive',
      writer: { worker: 'A', fencingToken: lease.token },
    });
    const checkpoint = reviewCheckpoint();
    await saver.put(at(thread), checkpoint, { ...META, mine: 'x' } as CheckpointMetadata, { schemaVersion: 1 });
    expect(await checkpointsOf(thread)).toEqual([{ checkpoint_id: checkpoint.id, metadata: { ...META, mine: 'x' } }]);
    expect(await provenanceOf(thread)).toEqual([
      {
        checkpoint_id: checkpoint.id,
        serializer: SERIALIZER_VERSION,
        state_schema_version: STATE_SCHEMA_VERSION,
        writer: 'A',
        fencing_token: String(lease.token),
      },
    ]);
    expect((await saver.getTuple(at(thread)))?.metadata).toEqual({ ...META, mine: 'x' });
  });

  it('a writer fenced out leaves neither a checkpoint nor its provenance', async () => {
    const thread = `t-${crypto.randomUUID()}`;
    const a = await claimLease(pool, thread, 'A#1', 60_000);
    const saverA = new ReviewSaver(fencedPool(pool, a), {
      variant: 'naive',
      writer: { worker: 'A', fencingToken: a.token },
    });
    await pool.query(`UPDATE lg_leases SET expires_at = now() - interval '1 second' WHERE thread_id = $1`, [thread]);
    await claimLease(pool, thread, 'B#2', 60_000);
    await expect(saverA.put(at(thread), reviewCheckpoint(), META, { schemaVersion: 1 })).rejects.toBeInstanceOf(
      FencedOutError,
    );
    expect(await checkpointsOf(thread)).toEqual([]);
    expect(await provenanceOf(thread)).toEqual([]);
    expect(await rows(`SELECT 1 FROM checkpoint_blobs WHERE thread_id = $1`, thread)).toEqual([]);
  });

  it('commits with the checkpoint or not at all: a provenance insert that fails takes the checkpoint and blobs with it', async () => {
    const thread = `doomed-${crypto.randomUUID()}`;
    await pool.query(`
      CREATE OR REPLACE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.thread_id LIKE 'doomed-%' THEN RAISE EXCEPTION 'provenance refused'; END IF; RETURN NEW; END $$;
      CREATE OR REPLACE TRIGGER refuse_doomed BEFORE INSERT ON lg_checkpoint_provenance
        FOR EACH ROW EXECUTE FUNCTION refuse_doomed();`);
    try {
      const saver = new ReviewSaver(pool, { variant: 'naive' });
      await expect(saver.put(at(thread), reviewCheckpoint(), META, { schemaVersion: 1 })).rejects.toThrow(
        /provenance refused/,
      );
    } finally {
      await pool.query('DROP TRIGGER refuse_doomed ON lg_checkpoint_provenance');
    }
    expect(await checkpointsOf(thread)).toEqual([]);
    expect(await rows(`SELECT 1 FROM checkpoint_blobs WHERE thread_id = $1`, thread)).toEqual([]);
  });

  it('hardened refuses a checkpoint whose provenance names another serializer; naive does not look', async () => {
    const thread = `t-${crypto.randomUUID()}`;
    const hardened = new ReviewSaver(pool, { variant: 'hardened' });
    const stored = await hardened.put(at(thread), reviewCheckpoint(), META, { schemaVersion: 1 });
    expect((await hardened.getTuple(stored))?.checkpoint.id).toBe(stored.configurable?.checkpoint_id);
    await pool.query(`UPDATE lg_checkpoint_provenance SET serializer = 'msgpack/9' WHERE thread_id = $1`, [thread]);
    const err = await hardened.getTuple(at(thread)).catch((e) => e);
    expect(err).toBeInstanceOf(UnsupportedSerializerError);
    expect(err.found).toBe('msgpack/9');
    await expect(hardened.list(at(thread)).next()).rejects.toBeInstanceOf(UnsupportedSerializerError);
    expect(await new ReviewSaver(pool, { variant: 'naive' }).getTuple(at(thread))).toBeDefined();
  });

  it("a checkpoint's provenance goes with it: deleteThread and retention", async () => {
    const saver = new ReviewSaver(pool, { variant: 'naive', writer: { worker: 'T' } });
    const gone = `t-${crypto.randomUUID()}`;
    await saver.put(at(gone), reviewCheckpoint(), META, { schemaVersion: 1 });
    await saver.deleteThread(gone);
    expect(await provenanceOf(gone)).toEqual([]);

    const { runId, threadId } = await createRun({ databaseUrl: db.url, request: sampleRequest(), variant: 'naive' });
    await saver.put(at(threadId), reviewCheckpoint(), META, { schemaVersion: 1 });
    expect(await provenanceOf(threadId)).toHaveLength(1);
    await pool.query(
      `UPDATE lg_runs SET status = 'completed', finished_at = now() - interval '2 hours' WHERE run_id = $1`,
      [runId],
    );
    const { runIds } = await runRetention({ databaseUrl: db.url, olderThanMs: 3_600_000 });
    expect(runIds).toContain(runId);
    expect(await checkpointsOf(threadId)).toEqual([]);
    expect(await provenanceOf(threadId)).toEqual([]);
  });
});

describe('setupDatabase on a database from before the migrations list', () => {
  it('keeps what is there, copies the old metadata stamps into provenance once, and leaves the metadata alone', async () => {
    const old = await freshDatabase(SERVER_URL, 'lg_test_premigrations');
    const c = new pg.Pool({ connectionString: old.url, max: 2 });
    try {
      // The setup this package had before: PostgresSaver's tables, then SCHEMA_SQL, no migrations table.
      await new PostgresSaver(c).setup();
      await c.query(SCHEMA_SQL);
      // A run as that code registered it: the columns of SCHEMA_SQL, nothing a later migration added.
      const runId = 'rev-premigrations-1';
      const threadId = crypto.randomUUID();
      await c.query(
        `INSERT INTO lg_runs (run_id, thread_id, variant, durability, checkpointer, request) VALUES ($1, $2, 'naive', 'async', 'postgres', $3)`,
        [runId, threadId, JSON.stringify(sampleRequest())],
      );
      const stock = new PostgresSaver(c);
      const stampedMeta = {
        ...META,
        serializer: SERIALIZER_VERSION,
        stateSchemaVersion: 1,
        writer: 'old',
        fencingToken: 3,
      };
      const stamped = await stock.put(at(threadId), reviewCheckpoint(), stampedMeta as CheckpointMetadata, {});
      const plain = await stock.put(at(threadId), reviewCheckpoint(), META, {});

      await setupDatabase(old.url);
      await setupDatabase(old.url); // the second is a no-op

      expect((await c.query(`SELECT v FROM lg_migrations ORDER BY v`)).rows.map((r) => r.v)).toEqual(
        LG_MIGRATIONS.map((_, i) => i + 1),
      );
      expect((await c.query(`SELECT run_id FROM lg_runs`)).rows).toEqual([{ run_id: runId }]);
      // It ran today's graph's predecessor: migration 4 gives it the fine granularity.
      expect((await loadRun(c, runId))?.granularity).toBe('fine');
      const prov = (await c.query(`SELECT * FROM lg_checkpoint_provenance`)).rows;
      expect(prov).toMatchObject([
        {
          checkpoint_id: stamped.configurable?.checkpoint_id,
          serializer: SERIALIZER_VERSION,
          state_schema_version: 1,
          writer: 'old',
          fencing_token: '3',
        },
      ]);
      expect(prov.some((p) => p.checkpoint_id === plain.configurable?.checkpoint_id)).toBe(false);
      const meta = (
        await c.query(`SELECT metadata FROM checkpoints WHERE checkpoint_id = $1`, [
          stamped.configurable?.checkpoint_id,
        ])
      ).rows[0].metadata;
      expect(meta).toEqual(stampedMeta);
    } finally {
      await c.end();
      await old.drop();
    }
  });
});
