import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { toV1, type ReviewState } from '@vendor-review/domain';
import { SERIALIZER_VERSION, isRuntimeChannel } from './checkpointer.ts';
import { RunNotFoundError } from './errors.ts';
import { withPool } from './pool.ts';
import { loadRun } from './runs.ts';

/**
 * Rewrites a run's latest checkpoint as the previous release (state schema v1, with `sitemap`
 * where v2 has `pages`) would have written it, so a test or a demo can resume "last month's"
 * checkpoint with today's code. Uses a plain PostgresSaver, as the old code did: the checkpoint
 * keeps its id, parent and pending writes; only its state channels change.
 */
export async function writeV1Checkpoint(o: { databaseUrl: string; runId: string }): Promise<{ checkpointId: string }> {
  return withPool(o.databaseUrl, async (pool) => {
    const run = await loadRun(pool, o.runId);
    if (!run) throw new RunNotFoundError(o.runId);
    const saver = new PostgresSaver(pool);
    const tuple = await saver.getTuple({ configurable: { thread_id: run.threadId } });
    if (!tuple) throw new Error(`run ${o.runId} has no checkpoint to rewrite`);
    const values = tuple.checkpoint.channel_values;
    const stateKeys = Object.keys(values).filter((k) => !isRuntimeChannel(k));
    if (stateKeys.length === 0) throw new Error(`run ${o.runId}: the latest checkpoint holds no review state yet`);
    const v1 = toV1(Object.fromEntries(stateKeys.map((k) => [k, values[k]])) as unknown as ReviewState);
    const checkpoint = {
      ...tuple.checkpoint,
      channel_values: { ...values },
      channel_versions: { ...tuple.checkpoint.channel_versions },
    };
    const fresh =
      Object.values(checkpoint.channel_versions).reduce<number>((max, v) => Math.max(max, Number(v)), 0) + 1;
    const newVersions: Record<string, number> = {};
    for (const key of stateKeys) {
      if (key in v1) continue;
      delete checkpoint.channel_values[key];
      delete checkpoint.channel_versions[key];
    }
    for (const [key, value] of Object.entries(v1)) {
      if (key in values && JSON.stringify(values[key]) === JSON.stringify(value)) continue;
      checkpoint.channel_values[key] = value;
      checkpoint.channel_versions[key] = fresh;
      newVersions[key] = fresh;
    }
    const parent = tuple.parentConfig ?? { configurable: { thread_id: run.threadId, checkpoint_ns: '' } };
    const metadata = {
      ...tuple.metadata,
      serializer: SERIALIZER_VERSION,
      stateSchemaVersion: 1,
    } as typeof tuple.metadata & object;
    await saver.put(parent, checkpoint, metadata as never, newVersions);
    return { checkpointId: checkpoint.id };
  });
}
