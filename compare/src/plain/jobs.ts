import type { Decision, ReviewRequestInput, ReviewState, RunStatus, Variant } from '@vendor-review/pipeline';
import { runMigrations } from '@vendor-review/worker-io';
import type pg from 'pg';

/**
 * The plain runtime's job table: what any job queue keeps (the request, a status, who took it),
 * and nothing a runtime would resume from. A worker that dies leaves the job "running"; the next
 * worker runs it again from its request, as an at-least-once queue redelivers a message.
 */
const SCHEMA = `
CREATE TABLE plain_jobs (
  run_id      TEXT PRIMARY KEY,
  variant     TEXT NOT NULL CHECK (variant IN ('naive', 'hardened')),
  request     JSONB NOT NULL,
  status      TEXT NOT NULL DEFAULT 'pending'
              CHECK (status IN ('pending', 'running', 'awaiting-approval', 'completed', 'failed')),
  approval    JSONB,
  final_state JSONB,
  deliveries  INTEGER NOT NULL DEFAULT 0,
  last_worker TEXT,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
`;

export async function setupPlainJobs(pool: pg.Pool): Promise<void> {
  await runMigrations(pool, { table: 'plain_migrations', lockKey: 7_411_205, migrations: [SCHEMA] });
}

export interface Job {
  runId: string;
  variant: Variant;
  request: ReviewRequestInput;
  status: Exclude<RunStatus, 'not-found'>;
  approval: Decision | null;
  finalState: ReviewState | null;
}

export async function insertJob(
  pool: pg.Pool,
  job: { runId: string; variant: Variant; request: ReviewRequestInput },
): Promise<void> {
  await pool.query(`INSERT INTO plain_jobs (run_id, variant, request) VALUES ($1, $2, $3)`, [
    job.runId,
    job.variant,
    JSON.stringify(job.request),
  ]);
}

export async function loadJob(pool: pg.Pool, runId: string): Promise<Job | null> {
  const r = (await pool.query(`SELECT * FROM plain_jobs WHERE run_id = $1`, [runId])).rows[0];
  if (!r) return null;
  return {
    runId: r.run_id,
    variant: r.variant,
    request: r.request,
    status: r.status,
    approval: r.approval,
    finalState: r.final_state,
  };
}

/** A worker takes the job (again): it starts over from the request, whatever an earlier worker did. */
export async function takeJob(pool: pg.Pool, runId: string, worker: string): Promise<void> {
  await pool.query(
    `UPDATE plain_jobs SET status = 'running', deliveries = deliveries + 1, last_worker = $2, updated_at = now() WHERE run_id = $1`,
    [runId, worker],
  );
}

export async function setJobStatus(pool: pg.Pool, runId: string, status: Job['status']): Promise<void> {
  await pool.query(`UPDATE plain_jobs SET status = $2, updated_at = now() WHERE run_id = $1`, [runId, status]);
}

export async function finishJob(pool: pg.Pool, runId: string, state: ReviewState, failed: boolean): Promise<void> {
  await pool.query(`UPDATE plain_jobs SET status = $2, final_state = $3, updated_at = now() WHERE run_id = $1`, [
    runId,
    failed ? 'failed' : 'completed',
    JSON.stringify(state),
  ]);
}

/** The first decision wins, as in both runtimes. */
export async function recordDecision(pool: pg.Pool, runId: string, d: Decision): Promise<void> {
  await pool.query(`UPDATE plain_jobs SET approval = coalesce(approval, $2) WHERE run_id = $1`, [
    runId,
    JSON.stringify(d),
  ]);
}
