import { newRunId, parseReviewRequest } from '@vendor-review/pipeline';
import {
  type DeployDrill,
  type LastRelease,
  type Footprint,
  type MemoryDrill,
  type Refusal,
  type RetentionDrill,
  type RunHandle,
  type RuntimeAdapter,
  type RuntimeDrills,
  type WorkerEnding,
} from '@vendor-review/conformance';
import type pg from 'pg';
import { defaultDurability } from '../src/durability.ts';
import { EXIT } from '../src/exit-codes.ts';
import { insertRun, loadRun, type LangGraphApi } from '../src/runs.ts';
import { runRetention } from '../src/retention.ts';
import { RELABEL_LATEST_SERIALIZER, SELECT_RUN_FOOTPRINT } from './sql.ts';
import { writeV1Checkpoint } from './v1-checkpoint.ts';

/**
 * What a later release would name its serializer; this code reads only langgraph-jsonplus/1. The
 * drill relabels the latest checkpoint with it, as if that release had written it and been rolled back.
 */
export const FOREIGN_SERIALIZER = 'langgraph-msgpack/2';

/** The line a worker printed that says why it stopped, without the log prefix. */
function lineOf(output: string, pattern: RegExp): string {
  const line = output.split('\n').find((l) => pattern.test(l)) ?? '';
  return line.replace(/^\[worker [^\]]*\]\s*/, '').trim();
}

/** Why a LangGraph worker would not go on with a run: its exit code, which means one thing each (src/exit-codes.ts). */
function explainExit(e: WorkerEnding): Refusal | null {
  if (e.exitCode === EXIT.checkpointUnreadable)
    return {
      kind: 'checkpoint-unreadable',
      where: `worker ${e.name}, loading the run's latest checkpoint, before any step (exit code ${EXIT.checkpointUnreadable})`,
      error: lineOf(e.output, /cannot be resumed by this version/).replace(
        /^Run \S+ cannot be resumed by this version of the worker: /,
        '',
      ),
    };
  if (e.exitCode === EXIT.nothingToResume)
    return {
      kind: 'nothing-to-resume',
      where: `worker ${e.name}, at start: no checkpoint to resume from (exit code ${EXIT.nothingToResume})`,
      error: lineOf(e.output, /cannot be resumed/),
    };
  return null;
}

export function langGraphDrills(o: {
  adapter: RuntimeAdapter;
  pool: pg.Pool;
  databaseUrl: string;
  /** Whose runs: the StateGraph's (default) or the Functional API's, which has no deploy drill (below). */
  api?: { name: LangGraphApi; runPrefix: string };
}): RuntimeDrills {
  const { adapter, pool } = o;
  const api = o.api ?? { name: 'graph', runPrefix: 'lg' };
  const threadOf = async (h: RunHandle) => {
    const run = await loadRun(pool, h.runId);
    if (!run) throw new Error(`no run ${h.runId}`);
    return run.threadId;
  };

  // LangGraph cannot run last release's code here (there is one worker build); the drill kills
  // today's worker and rewrites its latest checkpoint as state schema 1 wrote it (v1-checkpoint.ts).
  const lastRelease: LastRelease = {
    previous: 'today’s worker, its latest checkpoint then rewritten as v1 wrote it',
    previousWorker: async (h, opts) => adapter.workerSpec(h, opts),
    async leftByPrevious(h) {
      await writeV1Checkpoint({ databaseUrl: o.databaseUrl, runId: h.runId });
      return 'latest checkpoint in state schema 1 (the pages under "sitemap")';
    },
    nextWorker: async (h, { name }) => adapter.workerSpec(h, { name, crashPlan: null }),
  };

  const deploy: DeployDrill = {
    // Last release's record is a StateGraph checkpoint in state schema 1 (v1-checkpoint.ts); an
    // entrypoint keeps its state in task results, which no drill writes as an older release would.
    ...(api.name === 'graph' ? { lastRelease } : {}),
    async foreignFormat(h) {
      const { rows } = await pool.query(RELABEL_LATEST_SERIALIZER, [await threadOf(h), FOREIGN_SERIALIZER]);
      if (!rows[0]) throw new Error(`run ${h.runId} has no checkpoint to relabel`);
      return `latest checkpoint labelled serializer ${FOREIGN_SERIALIZER} (a later release’s, rolled back)`;
    },
  };

  const memory: MemoryDrill = {
    holder: 'the worker process (MemorySaver)',
    open: async () => ({
      adapter: {
        ...adapter,
        async startRun(request, config, opts) {
          parseReviewRequest(request);
          const durability = config.durability ?? defaultDurability(config.variant);
          const { runId, threadId } = await insertRun(pool, {
            request,
            variant: config.variant,
            durability,
            checkpointer: 'memory',
            api: api.name,
            runId: opts?.runId ?? newRunId(`${api.runPrefix}-memory`),
          });
          return { runId, config, durability, runtimeIds: { threadId }, link: null };
        },
      },
      async lose(worker) {
        await worker.kill();
        return 'the worker process, and with it the MemorySaver (SIGKILL)';
      },
      close: async () => undefined,
    }),
  };

  const retention: RetentionDrill = {
    how: 'runRetention: checkpoints, blobs, writes, provenance, outbox, approval and spent lease of runs finished before the window; the run’s row stays, marked purged',
    async footprint(h): Promise<Footprint> {
      const { rows } = await pool.query(SELECT_RUN_FOOTPRINT, [h.runId, await threadOf(h)]);
      return {
        items: Object.fromEntries(rows.map((r) => [r.what as string, Number(r.n)])),
        bytes: rows.reduce((s, r) => s + Number(r.bytes), 0),
      };
    },
    async purge({ olderThanMs, handles }) {
      const { runIds } = await runRetention({
        databaseUrl: o.databaseUrl,
        olderThanMs,
        runIds: handles.map((h) => h.runId),
      });
      return { removed: runIds };
    },
  };

  return {
    servers: () => ['postgres'],
    async explain(_h, endings) {
      for (const e of [...endings].reverse()) {
        const why = explainExit(e);
        if (why) return why;
      }
      return null;
    },
    deploy,
    memory,
    retention,
  };
}
