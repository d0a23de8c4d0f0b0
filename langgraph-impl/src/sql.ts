import { outboxTableSql, stepErrorsTableSql } from '@vendor-review/worker-io';

/**
 * Every statement the application runs against its own tables, in one place (what only the harness
 * reads or rewrites, for inspection, drills and checks, is harness/sql.ts). The checkpoint tables
 * (checkpoints, checkpoint_blobs, checkpoint_writes, checkpoint_migrations) belong to
 * PostgresSaver.setup(); we read them, write a checkpoint with its provenance (ReviewSaver.put),
 * and delete from them in retention.
 *
 * Our tables live next to the checkpoints in the same database on purpose: the outbox row and
 * the lease check can then share a transaction with what they guard.
 */

/** Every LangGraph drainer may deliver every LangGraph row; a run's own worker narrows to its run. */
export const LG_OUTBOX_SCOPE = 'langgraph';

export const TABLES = {
  runs: 'lg_runs',
  approvals: 'lg_approvals',
  leases: 'lg_leases',
  outbox: 'lg_outbox',
  provenance: 'lg_checkpoint_provenance',
  migrations: 'lg_migrations',
  stepErrors: 'lg_step_errors',
} as const;

/** Migration 1 (LG_MIGRATIONS): a change to our tables is a new migration, never an edit here. */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS lg_runs (
  run_id        TEXT PRIMARY KEY,
  thread_id     TEXT NOT NULL UNIQUE,
  variant       TEXT NOT NULL CHECK (variant IN ('naive', 'hardened')),
  durability    TEXT NOT NULL CHECK (durability IN ('exit', 'async', 'sync')),
  checkpointer  TEXT NOT NULL CHECK (checkpointer IN ('postgres', 'memory')),
  status        TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'running', 'awaiting-approval', 'completed', 'failed')),
  request       JSONB NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at    TIMESTAMPTZ,
  finished_at   TIMESTAMPTZ,
  last_worker   TEXT,
  claimed_by    TEXT,
  error         TEXT,
  failure       JSONB,
  purged_at     TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS lg_runs_status ON lg_runs (status, finished_at);

CREATE TABLE IF NOT EXISTS lg_approvals (
  run_id        TEXT PRIMARY KEY REFERENCES lg_runs (run_id) ON DELETE CASCADE,
  approved      BOOLEAN NOT NULL,
  decided_by    TEXT NOT NULL,
  note          TEXT,
  decided_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  consumed_at   TIMESTAMPTZ,
  consumed_by   TEXT
);

CREATE TABLE IF NOT EXISTS lg_leases (
  thread_id     TEXT PRIMARY KEY,
  owner         TEXT NOT NULL,
  expires_at    TIMESTAMPTZ NOT NULL,
  fencing_token BIGINT NOT NULL,
  claimed_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS lg_outbox (
  id              BIGSERIAL PRIMARY KEY,
  run_id          TEXT NOT NULL,
  thread_id       TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  mail            JSONB NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  last_error      TEXT,
  next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  sent_at         TIMESTAMPTZ,
  message_id      TEXT,
  duplicate       BOOLEAN,
  sent_by         TEXT
);
CREATE INDEX IF NOT EXISTS lg_outbox_due ON lg_outbox (status, next_attempt_at);
`;

/**
 * Migration 2: what wrote each checkpoint (serializer, state schema version, worker, fencing token),
 * beside it rather than in its metadata, which is the caller's and comes back unaltered. Keyed like
 * `checkpoints` and deleted with it. Checkpoints stamped by the code before this one keep their
 * metadata as it is; their stamps are copied here so every reader looks in one place.
 */
export const PROVENANCE_SQL = `
CREATE TABLE lg_checkpoint_provenance (
  thread_id            TEXT NOT NULL,
  checkpoint_ns        TEXT NOT NULL DEFAULT '',
  checkpoint_id        TEXT NOT NULL,
  serializer           TEXT NOT NULL,
  state_schema_version INTEGER,
  writer               TEXT,
  fencing_token        BIGINT,
  written_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id),
  FOREIGN KEY (thread_id, checkpoint_ns, checkpoint_id)
    REFERENCES checkpoints (thread_id, checkpoint_ns, checkpoint_id) ON DELETE CASCADE
);
INSERT INTO lg_checkpoint_provenance (thread_id, checkpoint_ns, checkpoint_id, serializer, state_schema_version, writer, fencing_token)
SELECT thread_id, checkpoint_ns, checkpoint_id, metadata->>'serializer',
  CASE WHEN jsonb_typeof(metadata->'stateSchemaVersion') = 'number' THEN (metadata->>'stateSchemaVersion')::numeric::integer END,
  metadata->>'writer',
  CASE WHEN jsonb_typeof(metadata->'fencingToken') = 'number' THEN (metadata->>'fencingToken')::numeric::bigint END
FROM checkpoints WHERE jsonb_typeof(metadata->'serializer') = 'string';
`;

/**
 * Migration 3: the outbox takes the layout both runtimes share (shared-domain's outbox module):
 * the run's identity as one JSON value, a scope naming who may drain a row, the receipt as JSON, one
 * status vocabulary (pending, sent, dead). Rows of the old layout are carried over, pending mail
 * included: nothing waiting to be sent is lost by the upgrade.
 */
export const OUTBOX_SQL = `
ALTER TABLE lg_outbox RENAME TO lg_outbox_v1;
DROP INDEX IF EXISTS lg_outbox_due;
${outboxTableSql('lg_outbox')}
INSERT INTO lg_outbox (scope, idempotency_key, run_id, run, mail, status, attempts, next_attempt_at, last_error, receipt, sent_by, created_at, sent_at)
SELECT '${LG_OUTBOX_SCOPE}', idempotency_key, run_id,
  jsonb_build_object('runId', run_id, 'runtime', 'langgraph', 'runtimeId', thread_id),
  mail, status, attempts, next_attempt_at, last_error,
  CASE WHEN message_id IS NULL THEN NULL ELSE jsonb_build_object('id', message_id, 'duplicate', coalesce(duplicate, false)) END,
  sent_by, created_at, sent_at
FROM lg_outbox_v1 ORDER BY id;
DROP TABLE lg_outbox_v1;
`;

/**
 * Migration 4: where a run's durable boundaries are (domain granularity.ts). The graph is built
 * from it, so a resuming worker must build the one that wrote the checkpoints; runs from before it
 * had today's graph, `fine`.
 */
export const GRANULARITY_SQL = `
ALTER TABLE lg_runs ADD COLUMN granularity TEXT NOT NULL DEFAULT 'fine'
  CHECK (granularity IN ('coarse', 'per-requirement', 'fine'));
`;

/**
 * Migration 5: the step's own errors, keyed by run and step (the hardened retry rule's count,
 * retry.ts): LangGraph's attempt count lives in the worker's memory and dies with it.
 */
export const STEP_ERRORS_SQL = stepErrorsTableSql(TABLES.stepErrors);

/**
 * Migration 6: which of LangGraph's two APIs runs the run: the StateGraph (`graph`) or the
 * Functional API's entrypoint (`functional`, src/functional/). Their checkpoints are not
 * interchangeable, so a resuming worker must build the one that wrote them; runs from before it
 * were graphs.
 */
export const API_SQL = `
ALTER TABLE lg_runs ADD COLUMN api TEXT NOT NULL DEFAULT 'graph' CHECK (api IN ('graph', 'functional'));
`;

/**
 * Our schema, in order (shared-domain's runMigrations, recorded in lg_migrations). Append only: a
 * database remembers the numbers it has run, not their text. Migration 1 is the schema from before
 * this list, all IF NOT EXISTS, so a database set up by that code takes it as a no-op and goes on.
 */
export const LG_MIGRATIONS: readonly string[] = [
  SCHEMA_SQL,
  PROVENANCE_SQL,
  OUTBOX_SQL,
  GRANULARITY_SQL,
  STEP_ERRORS_SQL,
  API_SQL,
];

// --- runs -------------------------------------------------------------------------------------

export const INSERT_RUN = `
INSERT INTO lg_runs (run_id, thread_id, variant, durability, checkpointer, request, granularity, api)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

export const SELECT_RUN = `SELECT * FROM lg_runs WHERE run_id = $1`;

export const MARK_RUN_STARTED = `
UPDATE lg_runs SET status = 'running', started_at = coalesce(started_at, now()), updated_at = now(), last_worker = $2
WHERE run_id = $1 AND status NOT IN ('completed', 'failed')`;

/**
 * A completed run stays completed: the thread says it ended, and a worker that says otherwise is
 * writing from a stale position. Found by the zombie hazard: a naive entrypoint woken after its
 * takeover had completed the run failed on its first request (the connection the world had closed
 * while it slept) and marked the run failed, although LangGraph's own record ends completed.
 */
export const SET_RUN_STATUS = `
UPDATE lg_runs SET status = $2, updated_at = now(), last_worker = $3,
  finished_at = CASE WHEN $2 IN ('completed', 'failed') THEN now() ELSE finished_at END
WHERE run_id = $1 AND (status <> 'completed' OR $2 = 'completed')`;

export const MARK_RUN_FAILED = `
UPDATE lg_runs SET status = 'failed', updated_at = now(), finished_at = now(), last_worker = $2, error = $3, failure = $4
WHERE run_id = $1 AND status <> 'completed'`;

/** A naive run has no lease: the only claim is marking a pending run as taken, once. */
export const CLAIM_PENDING_NAIVE_RUN = `
UPDATE lg_runs SET claimed_by = $1, updated_at = now()
WHERE run_id = (
  SELECT run_id FROM lg_runs WHERE variant = 'naive' AND status = 'pending' AND claimed_by IS NULL
  ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING run_id`;

/**
 * Hardened runs that need an owner: not finished, nobody holding a live lease, and not parked
 * at the approval gate without a decision (an undecided approval needs a human, not a worker).
 */
export const SELECT_HARDENED_RUNS_NEEDING_OWNER = `
SELECT r.run_id FROM lg_runs r
LEFT JOIN lg_leases l ON l.thread_id = r.thread_id
WHERE r.variant = 'hardened' AND r.checkpointer = 'postgres' AND NOT (r.run_id = ANY($1::text[]))
  AND r.status IN ('pending', 'running', 'awaiting-approval')
  AND (l.thread_id IS NULL OR l.expires_at < now())
  AND (r.status <> 'awaiting-approval' OR EXISTS (SELECT 1 FROM lg_approvals a WHERE a.run_id = r.run_id))
ORDER BY r.created_at
LIMIT 20`;

// --- approvals ----------------------------------------------------------------------------------

/** The first decision wins: a second click cannot flip a review that may already be delivered. */
export const INSERT_APPROVAL = `
INSERT INTO lg_approvals (run_id, approved, decided_by, note) VALUES ($1, $2, $3, $4)
ON CONFLICT (run_id) DO NOTHING`;

export const SELECT_APPROVAL = `SELECT approved, decided_by, note, decided_at FROM lg_approvals WHERE run_id = $1`;

export const MARK_APPROVAL_CONSUMED = `
UPDATE lg_approvals SET consumed_at = coalesce(consumed_at, now()), consumed_by = coalesce(consumed_by, $2) WHERE run_id = $1`;

// --- leases -------------------------------------------------------------------------------------

/**
 * One statement claims the lease: insert it when absent, otherwise take it over only when it has
 * expired or is already ours. Each successful claim bumps the fencing token, so every earlier
 * holder's token is now stale. No row returned = somebody else holds a live lease.
 */
export const CLAIM_LEASE = `
INSERT INTO lg_leases AS l (thread_id, owner, expires_at, fencing_token)
VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000), 1)
ON CONFLICT (thread_id) DO UPDATE
  SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at,
      fencing_token = l.fencing_token + 1, claimed_at = now()
  WHERE l.expires_at < now() OR l.owner = EXCLUDED.owner
RETURNING fencing_token, expires_at`;

/** Renewal extends only the lease we still hold with the token we were given. */
export const RENEW_LEASE = `
UPDATE lg_leases SET expires_at = now() + make_interval(secs => $4::double precision / 1000)
WHERE thread_id = $1 AND owner = $2 AND fencing_token = $3 AND expires_at > now()
RETURNING expires_at`;

export const RELEASE_LEASE = `
UPDATE lg_leases SET expires_at = now() WHERE thread_id = $1 AND owner = $2 AND fencing_token = $3`;

/**
 * A supervisor that has seen the owner's process die (a SIGKILL it sent, a pod it watched go) ends
 * that owner's leases at once, so the successor need not wait out the expiry.
 */
export const EXPIRE_LEASES_OF_OWNER = `
UPDATE lg_leases SET expires_at = now() WHERE owner = $1 AND expires_at > now()`;

export const SELECT_LEASE = `SELECT owner, expires_at, fencing_token, expires_at > now() AS live FROM lg_leases WHERE thread_id = $1`;

/**
 * Run inside every fenced write transaction. FOR SHARE holds the row until COMMIT, so a rival's
 * claim (an UPDATE of this row) waits for our write to finish or fails it: the write either
 * commits under a valid lease or does not happen.
 */
export const CHECK_FENCE = `
SELECT 1 FROM lg_leases
WHERE thread_id = $1 AND owner = $2 AND fencing_token = $3 AND expires_at > now()
FOR SHARE`;

/**
 * BEGIN and CHECK_FENCE in one simple-query message, i.e. one round trip for what was two: the
 * transaction stays open after the message, with the lease row held FOR SHARE as before. That
 * protocol takes no parameters, hence the arguments: literals already quoted by the client.
 */
export const BEGIN_FENCED = (threadId: string, owner: string, token: string) => `BEGIN;
SELECT 1 FROM lg_leases
WHERE thread_id = ${threadId} AND owner = ${owner} AND fencing_token = ${token} AND expires_at > now()
FOR SHARE`;

// --- retention ----------------------------------------------------------------------------------

/**
 * Finished long enough ago, and nobody holds a live lease on the thread (a worker finishing up the
 * outbox, say). Locked so a concurrent status change waits for us rather than racing the delete.
 * $2: only these runs (null: all), for an operator purging one tenant or a harness sharing the database.
 */
export const SELECT_EXPIRED_RUNS = `
SELECT r.run_id, r.thread_id FROM lg_runs r
WHERE r.status IN ('completed', 'failed') AND r.purged_at IS NULL
  AND ($2::text[] IS NULL OR r.run_id = ANY($2))
  AND r.finished_at < now() - make_interval(secs => $1::double precision / 1000)
  AND NOT EXISTS (SELECT 1 FROM lg_leases l WHERE l.thread_id = r.thread_id AND l.expires_at > now())
  AND NOT EXISTS (SELECT 1 FROM lg_outbox o WHERE o.run_id = r.run_id AND o.status = 'pending')
FOR UPDATE OF r SKIP LOCKED`;

export const DELETE_THREAD_CHECKPOINTS = [
  `DELETE FROM lg_checkpoint_provenance WHERE thread_id = ANY($1)`, // the cascade would too; said here, not implied
  `DELETE FROM checkpoint_writes WHERE thread_id = ANY($1)`,
  `DELETE FROM checkpoint_blobs WHERE thread_id = ANY($1)`,
  `DELETE FROM checkpoints WHERE thread_id = ANY($1)`,
];

/** What else a purged run leaves: its approval (who decided, and the note) and its expired lease row. */
export const DELETE_RUN_APPROVALS = `DELETE FROM lg_approvals WHERE run_id = ANY($1)`;
export const DELETE_SPENT_LEASES = `DELETE FROM lg_leases WHERE thread_id = ANY($1) AND expires_at <= now()`;
export const DELETE_RUN_STEP_ERRORS = `DELETE FROM lg_step_errors WHERE run_key = ANY($1)`;

/** The mail bodies go too: a finished run's delivered review is the customer's, not an archive's. */
export const DELETE_FINISHED_OUTBOX = `DELETE FROM lg_outbox WHERE run_id = ANY($1) AND status <> 'pending'`;

export const MARK_RUNS_PURGED = `UPDATE lg_runs SET purged_at = now() WHERE run_id = ANY($1)`;

// --- checkpoint writes (ReviewSaver.put) --------------------------------------------------------

/**
 * PostgresSaver.put's two statements (checkpoint-postgres 1.0.5, src/sql.ts; the package does not
 * export them), the second one extended: the provenance row rides in the checkpoint's own upsert,
 * so it costs no round trip and cannot exist without the checkpoint. The conformance suite
 * (test/conformance.test.ts) is what notices if these drift from the package's.
 */
export const UPSERT_CHECKPOINT_BLOB = `
INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING`;

export const UPSERT_CHECKPOINT_WITH_PROVENANCE = `
WITH cp AS (
  INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
  DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata
  RETURNING thread_id, checkpoint_ns, checkpoint_id
)
INSERT INTO lg_checkpoint_provenance (thread_id, checkpoint_ns, checkpoint_id, serializer, state_schema_version, writer, fencing_token)
SELECT thread_id, checkpoint_ns, checkpoint_id, $7::text, $8::integer, $9::text, $10::bigint FROM cp
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
DO UPDATE SET serializer = EXCLUDED.serializer, state_schema_version = EXCLUDED.state_schema_version,
  writer = EXCLUDED.writer, fencing_token = EXCLUDED.fencing_token, written_at = now()`;

/** The provenance of the checkpoints named by three parallel arrays (thread_id, checkpoint_ns, checkpoint_id). */
export const SELECT_PROVENANCE = `
SELECT p.thread_id, p.checkpoint_ns, p.checkpoint_id, p.serializer, p.state_schema_version, p.writer, p.fencing_token
FROM lg_checkpoint_provenance p
JOIN unnest($1::text[], $2::text[], $3::text[]) AS k (thread_id, checkpoint_ns, checkpoint_id)
  ON p.thread_id = k.thread_id AND p.checkpoint_ns = k.checkpoint_ns AND p.checkpoint_id = k.checkpoint_id`;

/** Migrated channel values are stored as blobs under fresh versions, next to the ones PostgresSaver writes. */
export const INSERT_MIGRATED_BLOB = UPSERT_CHECKPOINT_BLOB;
