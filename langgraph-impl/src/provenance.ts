import type pg from 'pg';
import { SELECT_PROVENANCE } from './sql.ts';

/**
 * What wrote a checkpoint, stored beside it (lg_checkpoint_provenance) and not in its metadata:
 * the metadata is the caller's and LangGraph hands it back to anyone reading the history.
 * Evidence for "who wrote this" and for a reader deciding whether it can read the bytes; not a lock.
 */
export interface Provenance {
  serializer: string;
  stateSchemaVersion: number | null;
  writer: string | null;
  fencingToken: number | null;
}

export interface CheckpointKey {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
}

const keyString = (k: CheckpointKey) => JSON.stringify([k.thread_id, k.checkpoint_ns, k.checkpoint_id]);

/** The key of a tuple's config, as put() stored it. */
export function checkpointKey(configurable: Record<string, unknown> | undefined): CheckpointKey {
  return {
    thread_id: String(configurable?.thread_id),
    checkpoint_ns: String(configurable?.checkpoint_ns ?? ''),
    checkpoint_id: String(configurable?.checkpoint_id),
  };
}

/** One round trip for any number of checkpoints; a checkpoint without a row (a stock saver wrote it) is absent. */
export async function readProvenance(
  db: pg.Pool | pg.PoolClient,
  keys: readonly CheckpointKey[],
): Promise<{ get(key: CheckpointKey): Provenance | undefined }> {
  const found = new Map<string, Provenance>();
  if (keys.length > 0) {
    const { rows } = await db.query(SELECT_PROVENANCE, [
      keys.map((k) => k.thread_id),
      keys.map((k) => k.checkpoint_ns),
      keys.map((k) => k.checkpoint_id),
    ]);
    for (const r of rows) {
      found.set(keyString(r), {
        serializer: r.serializer,
        stateSchemaVersion: r.state_schema_version,
        writer: r.writer,
        fencingToken: r.fencing_token === null ? null : Number(r.fencing_token),
      });
    }
  }
  return { get: (key) => found.get(keyString(key)) };
}
