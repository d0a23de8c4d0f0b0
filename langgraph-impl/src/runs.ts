import {
  newRunId,
  type ReviewRequestInput,
  DEFAULT_GRANULARITY,
  type Durability,
  type Granularity,
  type RunStatus,
  type Variant,
} from '@vendor-review/pipeline';
import type pg from 'pg';
import type { CheckpointerKind } from './checkpointer.ts';
import { defaultDurability } from './durability.ts';
import { withPool } from './pool.ts';
import { INSERT_RUN, MARK_RUN_FAILED, MARK_RUN_STARTED, SELECT_RUN, SET_RUN_STATUS } from './sql.ts';

/**
 * The business run (the customer's vendor review) and LangGraph's thread are different things:
 * the run id is ours and stable, the thread_id is where LangGraph keeps the checkpoints. This table
 * maps one to the other and holds what LangGraph does not: variant, durability, status, request.
 */
/** LangGraph's two ways to write a durable run (migration 6). */
export type LangGraphApi = 'graph' | 'functional';

/** What lg_runs records: the domain's run statuses, but for not-found, which no row can say. */
export type StoredStatus = Exclude<RunStatus, 'not-found'>;

export interface RunRow {
  runId: string;
  threadId: string;
  variant: Variant;
  durability: Durability;
  checkpointer: CheckpointerKind;
  /** Which graph the run's checkpoints belong to. */
  granularity: Granularity;
  /** Which LangGraph API wrote them: the StateGraph or the Functional API's entrypoint. */
  api: LangGraphApi;
  status: StoredStatus;
  request: ReviewRequestInput;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  lastWorker: string | null;
  error: string | null;
  failure: unknown;
  purgedAt: Date | null;
}

export interface CreateRunOptions {
  databaseUrl: string;
  request: ReviewRequestInput;
  variant: Variant;
  durability?: Durability;
  checkpointer?: CheckpointerKind;
  granularity?: Granularity;
  api?: LangGraphApi;
  runId?: string;
}

function vendorSlug(request: ReviewRequestInput): string {
  const name = typeof request?.vendor?.name === 'string' ? request.vendor.name : '';
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 24) || 'vendor'
  );
}

export async function insertRun(
  pool: pg.Pool,
  o: Omit<CreateRunOptions, 'databaseUrl'>,
): Promise<{ runId: string; threadId: string }> {
  const runId = o.runId ?? newRunId(vendorSlug(o.request));
  const threadId = crypto.randomUUID();
  await pool.query(INSERT_RUN, [
    runId,
    threadId,
    o.variant,
    o.durability ?? defaultDurability(o.variant),
    o.checkpointer ?? 'postgres',
    JSON.stringify(o.request),
    o.granularity ?? DEFAULT_GRANULARITY,
    o.api ?? 'graph',
  ]);
  return { runId, threadId };
}

/** Registers a run; nothing executes until a worker takes it. */
export async function createRun(o: CreateRunOptions): Promise<{ runId: string; threadId: string }> {
  return withPool(o.databaseUrl, (pool) => insertRun(pool, o));
}

export async function loadRun(pool: pg.Pool, runId: string): Promise<RunRow | null> {
  const r = (await pool.query(SELECT_RUN, [runId])).rows[0];
  if (!r) return null;
  return {
    runId: r.run_id,
    threadId: r.thread_id,
    variant: r.variant,
    durability: r.durability,
    checkpointer: r.checkpointer,
    granularity: r.granularity ?? DEFAULT_GRANULARITY,
    api: r.api ?? 'graph',
    status: r.status,
    request: r.request,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    lastWorker: r.last_worker,
    error: r.error,
    failure: r.failure,
    purgedAt: r.purged_at,
  };
}

/** A pool, or one client of it inside a fenced transaction (a hardened worker's status writes). */
export type RunsDb = pg.Pool | pg.PoolClient;

export async function markRunStarted(pool: RunsDb, runId: string, worker: string): Promise<void> {
  await pool.query(MARK_RUN_STARTED, [runId, worker]);
}

export async function setRunStatus(pool: RunsDb, runId: string, status: StoredStatus, worker: string): Promise<void> {
  await pool.query(SET_RUN_STATUS, [runId, status, worker]);
}

export async function markRunFailed(
  pool: RunsDb,
  runId: string,
  worker: string,
  error: string,
  failure?: unknown,
): Promise<void> {
  await pool.query(MARK_RUN_FAILED, [runId, worker, error, failure === undefined ? null : JSON.stringify(failure)]);
}
