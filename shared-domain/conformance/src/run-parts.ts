import {
  granularityOf,
  newRunId,
  parseReviewRequest,
  runIdPrefix,
  type Granularity,
  type ReviewRequestInput,
} from '@vendor-review/pipeline';
import type { RunConfig, RunHandle, WorkerSpec } from './adapter.ts';

/**
 * What every adapter does the same way when it registers a run and when it starts a worker for one.
 */

/** A new run's id (`rev-<prefix>-…`, or the one asked for) and granularity; a malformed request never becomes a run. */
export function newRunOf(
  prefix: string,
  request: ReviewRequestInput,
  config: RunConfig,
  opts?: { runId?: string },
): { runId: string; granularity: Granularity } {
  parseReviewRequest(request);
  const granularity = granularityOf(config);
  return { granularity, runId: opts?.runId ?? newRunId(runIdPrefix(prefix, { variant: config.variant, granularity })) };
}

/** A worker of one run (`--run <runId>`): the database, the world, the crash plan, and what else its runtime needs. */
export function oneRunWorker(
  entry: string,
  h: RunHandle,
  o: { databaseUrl: string; worldUrl: string; crashPlan: string | null },
  env: WorkerSpec['env'] = {},
): WorkerSpec {
  return {
    entry,
    args: ['--run', h.runId],
    env: { DATABASE_URL: o.databaseUrl, WORLD_URL: o.worldUrl, CRASH_PLAN: o.crashPlan ?? undefined, ...env },
  };
}
