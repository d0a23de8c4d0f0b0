import { toV1, type ReviewState } from '@vendor-review/pipeline';
import { ReviewSaver, isRuntimeChannel } from '../src/checkpointer.ts';
import { RunNotFoundError } from '../src/errors.ts';
import { withPool } from '../src/pool.ts';
import { checkpointKey, readProvenance } from '../src/provenance.ts';
import { loadRun } from '../src/runs.ts';

/**
 * Rewrites a run's latest checkpoint as the previous release (state schema v1, with `sitemap`
 * where v2 has `pages`) would have written it, so a test or a demo can resume "last month's"
 * checkpoint with today's code. The checkpoint keeps its id, parent, metadata, pending writes and
 * writer; only its state channels change, and its provenance says state schema 1 (the saver reads
 * that from the v1 state's own schemaVersion), as the provenance migration records it for a
 * checkpoint the old code stamped. Naive: the rewrite must not migrate what it reads.
 */
export async function writeV1Checkpoint(o: { databaseUrl: string; runId: string }): Promise<{ checkpointId: string }> {
  return withPool(o.databaseUrl, async (pool) => {
    const run = await loadRun(pool, o.runId);
    if (!run) throw new RunNotFoundError(o.runId);
    const tuple = await new ReviewSaver(pool, { variant: 'naive' }).getTuple({
      configurable: { thread_id: run.threadId },
    });
    if (!tuple) throw new Error(`run ${o.runId} has no checkpoint to rewrite`);
    const latest = checkpointKey(tuple.config.configurable);
    const was = (await readProvenance(pool, [latest])).get(latest);
    const writer = was?.writer
      ? { worker: was.writer, ...(was.fencingToken !== null ? { fencingToken: was.fencingToken } : {}) }
      : undefined;
    const saver = new ReviewSaver(pool, { variant: 'naive', ...(writer ? { writer } : {}) });
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
    await saver.put(parent, checkpoint, tuple.metadata!, newVersions);
    return { checkpointId: checkpoint.id };
  });
}
