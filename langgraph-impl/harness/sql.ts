/**
 * The statements only the harness runs: a poll of a run's status, an operator's give-up, what the
 * tables hold for inspection and the durable record, the drills' rewrites, and what a checker reads
 * across many runs. The application's own statements are src/sql.ts.
 */

// --- runs and leases ------------------------------------------------------------------------------

export const SELECT_RUN_STATUS = `SELECT status FROM lg_runs WHERE run_id = $1`;

/** The runs on these threads that their worker has recorded as waiting for the approval. */
export const SELECT_RUNS_AWAITING_APPROVAL = `SELECT run_id FROM lg_runs WHERE thread_id = ANY($1) AND status = 'awaiting-approval'`;

/** An operator gives up on a run that is still going; a run that already ended keeps its ending. */
export const ABANDON_RUN = `
UPDATE lg_runs SET status = 'failed', updated_at = now(), finished_at = now(), last_worker = 'operator', error = $2
WHERE run_id = $1 AND status NOT IN ('completed', 'failed')`;

/** Milliseconds until a live lease lapses, by the database's clock (the one the lease was written by). */
export const SELECT_LEASE_REMAINING_MS = `SELECT ceil(extract(epoch FROM expires_at - now()) * 1000)::int AS ms FROM lg_leases WHERE thread_id = $1 AND expires_at > now()`;

// --- durable record (LangGraph's own tables, read-only) -----------------------------------------

export const SELECT_CHECKPOINT_ROWS = `
SELECT c.checkpoint_id, c.parent_checkpoint_id, c.metadata, c.checkpoint->>'ts' AS ts, c.checkpoint->'versions_seen' AS versions_seen,
  p.writer, p.fencing_token, p.state_schema_version
FROM checkpoints c
LEFT JOIN lg_checkpoint_provenance p
  ON p.thread_id = c.thread_id AND p.checkpoint_ns = c.checkpoint_ns AND p.checkpoint_id = c.checkpoint_id
WHERE c.thread_id = $1 AND c.checkpoint_ns = '' ORDER BY c.checkpoint_id`;

/** What LangGraph's saver stores for one thread, in bytes as PostgreSQL keeps the rows (after compression). */
export const SELECT_THREAD_BYTES = `
SELECT (SELECT coalesce(sum(pg_column_size(c.*)), 0) FROM checkpoints c WHERE c.thread_id = $1)
     + (SELECT coalesce(sum(pg_column_size(b.*)), 0) FROM checkpoint_blobs b WHERE b.thread_id = $1)
     + (SELECT coalesce(sum(pg_column_size(w.*)), 0) FROM checkpoint_writes w WHERE w.thread_id = $1) AS bytes`;

export const SELECT_WRITE_ROWS = `
SELECT checkpoint_id, task_id, idx, channel FROM checkpoint_writes
WHERE thread_id = $1 AND checkpoint_ns = '' ORDER BY checkpoint_id, task_id, idx`;

// --- drills -------------------------------------------------------------------------------------

/**
 * What is stored for one run ($1 run id, $2 thread id), per table: rows and bytes as PostgreSQL
 * keeps them (pg_column_size of the row, after compression). The run's own row is left out: it
 * stays, marked purged, so a later resume can say why nothing is left.
 */
export const SELECT_RUN_FOOTPRINT = `
SELECT 'checkpoints' AS what, count(*)::int AS n, coalesce(sum(pg_column_size(t.*)), 0)::bigint AS bytes FROM checkpoints t WHERE thread_id = $2
UNION ALL SELECT 'blobs', count(*)::int, coalesce(sum(pg_column_size(t.*)), 0)::bigint FROM checkpoint_blobs t WHERE thread_id = $2
UNION ALL SELECT 'writes', count(*)::int, coalesce(sum(pg_column_size(t.*)), 0)::bigint FROM checkpoint_writes t WHERE thread_id = $2
UNION ALL SELECT 'provenance rows', count(*)::int, coalesce(sum(pg_column_size(t.*)), 0)::bigint FROM lg_checkpoint_provenance t WHERE thread_id = $2
UNION ALL SELECT 'outbox rows', count(*)::int, coalesce(sum(pg_column_size(t.*)), 0)::bigint FROM lg_outbox t WHERE run_id = $1
UNION ALL SELECT 'approvals', count(*)::int, coalesce(sum(pg_column_size(t.*)), 0)::bigint FROM lg_approvals t WHERE run_id = $1
UNION ALL SELECT 'leases', count(*)::int, coalesce(sum(pg_column_size(t.*)), 0)::bigint FROM lg_leases t WHERE thread_id = $2`;

/**
 * A drill's stand-in for a checkpoint another serializer wrote (a later release, since rolled back):
 * the provenance of the thread's latest checkpoint names `$2`. The bytes stay as they are.
 */
export const RELABEL_LATEST_SERIALIZER = `
UPDATE lg_checkpoint_provenance SET serializer = $2
WHERE thread_id = $1 AND checkpoint_ns = ''
  AND checkpoint_id = (SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = '')
RETURNING checkpoint_id`;

// --- checks across runs -------------------------------------------------------------------------

/** How each run's status and lease were left (a checker's question, asked for many runs at once). */
export const SELECT_COMPLETIONS = `
SELECT r.run_id, r.status, r.last_worker, r.finished_at, l.owner, l.fencing_token, l.claimed_at
FROM lg_runs r LEFT JOIN lg_leases l ON l.thread_id = r.thread_id
WHERE r.run_id = ANY($1::text[])`;

/** Who wrote each checkpoint of these runs' root graphs, in the order the rows were written. */
export const SELECT_PROVENANCE_OF_RUNS = `
SELECT r.run_id, p.checkpoint_id, p.writer, p.fencing_token, p.written_at
FROM lg_runs r JOIN lg_checkpoint_provenance p ON p.thread_id = r.thread_id AND p.checkpoint_ns = ''
WHERE r.run_id = ANY($1::text[])
ORDER BY p.written_at, p.checkpoint_id`;
