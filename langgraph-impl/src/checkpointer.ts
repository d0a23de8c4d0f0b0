import { MemorySaver, type BaseCheckpointSaver } from '@langchain/langgraph';
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointListOptions,
  CheckpointMetadata,
  CheckpointTuple,
} from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { RunnableConfig } from '@langchain/core/runnables';
import {
  PermanentError,
  STATE_SCHEMA_VERSION,
  UnsupportedStateVersionError,
  migrateState,
  stateVersionOf,
  type Variant,
} from '@vendor-review/pipeline';
import type pg from 'pg';
import { STATE_CHANNELS } from './channels.ts';
import { checkpointKey, readProvenance, type Provenance } from './provenance.ts';
import { INSERT_MIGRATED_BLOB, UPSERT_CHECKPOINT_BLOB, UPSERT_CHECKPOINT_WITH_PROVENANCE } from './sql.ts';
import { inTransaction } from '@vendor-review/worker-io';

export type CheckpointerKind = 'postgres' | 'memory';

/**
 * What wrote the bytes. LangGraph's JsonPlusSerializer is the only format we write; a reader
 * that meets another name refuses the checkpoint instead of guessing at it.
 */
export const SERIALIZER_VERSION = 'langgraph-jsonplus/1';

export class UnsupportedSerializerError extends PermanentError {
  constructor(readonly found: unknown) {
    super(
      `checkpoint was written with serializer ${JSON.stringify(found)}; this code reads only ${SERIALIZER_VERSION}`,
      'unsupported-serializer',
    );
  }
}

export interface WriterLabel {
  worker: string;
  fencingToken?: number;
}

export interface ReviewSaverOptions {
  /** hardened migrates older state on load; naive hands back whatever it finds. */
  variant: Variant;
  /** Recorded in each checkpoint's provenance row: evidence for "who wrote this", not a lock. */
  writer?: WriterLabel;
  /** Store the migrated channel values (as new blobs) so the next checkpoint can point at them. Off for read-only callers. */
  persistMigrations?: boolean;
}

/** LangGraph's own channels (branch:to:X, __start__, __pregel_tasks…) as opposed to review state. */
export function isRuntimeChannel(name: string): boolean {
  return name.startsWith('__') || name.includes(':');
}

const STATE_KEYS = new Set<string>(STATE_CHANNELS);

/**
 * PostgresSaver plus the two things state-outlives-code needs: every checkpoint has a provenance
 * row (provenance.ts) saying which serializer, state schema and writer wrote it, committed in the
 * checkpoint's own transaction, and (hardened) an older state is migrated with the domain's registry
 * when it is loaded, an unknown serializer or state version refused whole. The caller's metadata is
 * stored and returned as given.
 */
export class ReviewSaver extends PostgresSaver {
  constructor(
    private readonly db: pg.Pool,
    private readonly opts: ReviewSaverOptions,
  ) {
    super(db);
  }

  /**
   * PostgresSaver.put, on one client in one transaction (so a fenced pool checks the lease in it),
   * with the provenance row written by the checkpoint's own statement: a writer fenced out leaves
   * neither, and no round trip is added.
   */
  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error(`Missing "configurable" field in "config" param`);
    const { thread_id, checkpoint_ns = '', checkpoint_id } = config.configurable;
    const [blobs, storedMetadata] = await Promise.all([
      this._dumpBlobs(thread_id, checkpoint_ns, checkpoint.channel_values, newVersions),
      this._dumpMetadata(metadata),
    ]);
    const p = this.provenanceOf(checkpoint);
    await inTransaction(this.db, async (client) => {
      for (const blob of blobs) await client.query(UPSERT_CHECKPOINT_BLOB, blob);
      await client.query(UPSERT_CHECKPOINT_WITH_PROVENANCE, [
        thread_id,
        checkpoint_ns,
        checkpoint.id,
        checkpoint_id,
        this._dumpCheckpoint(checkpoint),
        storedMetadata,
        p.serializer,
        p.stateSchemaVersion,
        p.writer,
        p.fencingToken,
      ]);
      await this.written(client, checkpoint);
    });
    return { configurable: { thread_id, checkpoint_ns, checkpoint_id: checkpoint.id } };
  }

  /**
   * The checkpoint and its provenance are written on `client` and not yet committed. Nothing to do
   * here; a subclass that must act inside the checkpoint's own transaction overrides it.
   */
  protected async written(_client: pg.PoolClient, _checkpoint: Checkpoint): Promise<void> {}

  private provenanceOf(checkpoint: Checkpoint): Provenance {
    const version = checkpoint.channel_values.schemaVersion;
    return {
      serializer: SERIALIZER_VERSION,
      // No schemaVersion channel: the state, if any, is in the schema of the code writing it.
      stateSchemaVersion:
        version === undefined ? STATE_SCHEMA_VERSION : Number.isInteger(version) ? Number(version) : null,
      writer: this.opts.writer?.worker ?? null,
      fencingToken: this.opts.writer?.fencingToken ?? null,
    };
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const tuple = await super.getTuple(config);
    if (!tuple || this.opts.variant !== 'hardened') return tuple;
    const key = checkpointKey(tuple.config.configurable);
    return this.upgrade(tuple, (await readProvenance(this.db, [key])).get(key));
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    if (this.opts.variant !== 'hardened') {
      yield* super.list(config, options);
      return;
    }
    // PostgresSaver.list reads every row in one query anyway; the provenance of all of them is one more.
    const tuples: CheckpointTuple[] = [];
    for await (const tuple of super.list(config, options)) tuples.push(tuple);
    const provenance = await readProvenance(
      this.db,
      tuples.map((t) => checkpointKey(t.config.configurable)),
    );
    for (const tuple of tuples)
      yield await this.upgrade(tuple, provenance.get(checkpointKey(tuple.config.configurable)));
  }

  /** A checkpoint without provenance was written by a stock saver, whose serializer is ours. */
  private async upgrade(tuple: CheckpointTuple, provenance: Provenance | undefined): Promise<CheckpointTuple> {
    if (provenance && provenance.serializer !== SERIALIZER_VERSION)
      throw new UnsupportedSerializerError(provenance.serializer);
    const values = tuple.checkpoint.channel_values;
    const stateKeys = Object.keys(values).filter((k) => !isRuntimeChannel(k));
    if (stateKeys.length === 0) return tuple; // LangGraph's input checkpoint: nothing of ours to read yet
    const found = stateVersionOf(values);
    if (found === STATE_SCHEMA_VERSION && stateKeys.every((k) => STATE_KEYS.has(k))) return tuple;

    const oldState = Object.fromEntries(stateKeys.map((k) => [k, values[k]]));
    const migrated = migrateState(oldState) as unknown as Record<string, unknown>; // throws UnsupportedStateVersionError
    // Shallow copies: channel values may hold class instances (Send) that a deep clone would flatten.
    const checkpoint = {
      ...tuple.checkpoint,
      channel_values: { ...values },
      channel_versions: { ...tuple.checkpoint.channel_versions },
    };
    const versions = checkpoint.channel_versions;
    const top = Object.values(versions).reduce<number>((max, v) => Math.max(max, Number(v)), 0);
    if (!Number.isFinite(top)) throw new UnsupportedStateVersionError(found);
    const fresh = top + 1;
    const changed: Record<string, unknown> = {};
    for (const key of stateKeys) {
      if (!(key in migrated) || !STATE_KEYS.has(key)) {
        delete checkpoint.channel_values[key];
        delete versions[key];
      }
    }
    for (const [key, value] of Object.entries(migrated)) {
      if (!STATE_KEYS.has(key)) continue;
      if (key in values && JSON.stringify(values[key]) === JSON.stringify(value)) continue;
      checkpoint.channel_values[key] = value;
      versions[key] = fresh;
      changed[key] = value;
    }
    if (this.opts.persistMigrations) await this.storeBlobs(tuple, changed, fresh);
    return {
      ...tuple,
      checkpoint,
      pendingWrites: tuple.pendingWrites?.map((w) => this.upgradeWrite(w, found as number)),
    };
  }

  /** A pending write on a channel that no longer exists is run through the same migration, alone. */
  private upgradeWrite([taskId, channel, value]: [string, string, unknown], from: number): [string, string, unknown] {
    if (STATE_KEYS.has(channel) || isRuntimeChannel(channel)) return [taskId, channel, value];
    const moved = Object.entries(migrateState({ schemaVersion: from, [channel]: value })).find(
      ([k]) => k !== 'schemaVersion' && STATE_KEYS.has(k),
    );
    return moved ? [taskId, moved[0], moved[1]] : [taskId, channel, value];
  }

  /**
   * The migrated values must exist as blobs before LangGraph writes the next checkpoint: it only
   * stores channels it changed itself, and would otherwise point at versions nobody stored.
   * Idempotent (fixed version, same bytes), and fenced when this saver's pool is.
   */
  private async storeBlobs(tuple: CheckpointTuple, changed: Record<string, unknown>, version: number): Promise<void> {
    const { thread_id, checkpoint_ns = '' } = tuple.config.configurable ?? {};
    await inTransaction(this.db, async (client) => {
      for (const [channel, value] of Object.entries(changed)) {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        await client.query(INSERT_MIGRATED_BLOB, [thread_id, checkpoint_ns, channel, String(version), type, bytes]);
      }
    });
  }
}

/** Makes the PostgreSQL saver of a run: `ReviewSaver` itself, or a subclass of it. */
export type SaverFactory = (pool: pg.Pool, opts: ReviewSaverOptions) => ReviewSaver;

export const newReviewSaver: SaverFactory = (pool, opts) => new ReviewSaver(pool, opts);

export function createCheckpointer(
  kind: CheckpointerKind,
  pool: pg.Pool | null,
  opts: ReviewSaverOptions,
  newSaver: SaverFactory = newReviewSaver,
): BaseCheckpointSaver {
  if (kind === 'memory') return new MemorySaver();
  if (!pool) throw new Error('a postgres checkpointer needs a pool');
  return newSaver(pool, opts);
}
