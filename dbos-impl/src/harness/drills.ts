import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Footprint, RetentionDrill, RunHandle, RuntimeDrills } from '@vendor-review/domain';
import type pg from 'pg';

/** DBOS's tables that hold a workflow, keyed by its id, and ours keyed by the run (the same id). */
const FOOTPRINT = `
SELECT 'workflow' AS what, count(*) AS n, coalesce(sum(pg_column_size(t.*)), 0) AS bytes FROM dbos.workflow_status t WHERE workflow_uuid = $1
UNION ALL SELECT 'steps', count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM dbos.operation_outputs t WHERE workflow_uuid = $1
UNION ALL SELECT 'events', count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM dbos.workflow_events t WHERE workflow_uuid = $1
UNION ALL SELECT 'messages', count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM dbos.notifications t WHERE destination_uuid = $1
UNION ALL SELECT 'outbox rows', count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM dbos_outbox t WHERE run_id = $1
UNION ALL SELECT 'error counts', count(*), coalesce(sum(pg_column_size(t.*)), 0) FROM dbos_step_errors t WHERE run_key = $1`;

/** Finished for DBOS: the workflow returned, threw, or was cancelled; PENDING (also waiting in recv) and ENQUEUED are live. */
const FINISHED = ['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED'] as const;

/** A DBOS error as a worker printed it: the class name and its message, one line. */
const DBOS_ERROR = /\b(DBOS\w*Error)\b:?\s*([^\n]*)/;

export function dbosDrills(o: { pool: pg.Pool; client: DBOSClient }): RuntimeDrills {
  const retention: RetentionDrill = {
    how: 'DBOS keeps every workflow until deleted: deleteWorkflows on the runs whose workflow finished (SUCCESS, ERROR, CANCELLED) before the window, which removes its status, steps, events and messages; then our outbox rows and error counts of those runs',
    async footprint(h: RunHandle): Promise<Footprint> {
      const { rows } = await o.pool.query(FOOTPRINT, [h.runId]);
      return {
        items: Object.fromEntries(rows.map((r) => [r.what as string, Number(r.n)])),
        bytes: rows.reduce((s, r) => s + Number(r.bytes), 0),
      };
    },
    async purge({ olderThanMs, handles }) {
      const cutoff = Date.now() - olderThanMs;
      const statuses = await o.client.listWorkflows({
        workflowIDs: handles.map((h) => h.runId),
        status: [...FINISHED],
        completedBefore: new Date(cutoff).toISOString(),
        loadInput: false,
      });
      const ids = statuses.map((s) => s.workflowID);
      if (ids.length === 0) return { removed: [] };
      await o.client.deleteWorkflows(ids);
      await o.pool.query(`DELETE FROM dbos_outbox WHERE run_id = ANY($1::text[])`, [ids]);
      await o.pool.query(`DELETE FROM dbos_step_errors WHERE run_key = ANY($1::text[])`, [ids]);
      return { removed: ids };
    },
  };
  return {
    // The system schema, our outbox and our counts: everything of a run is in PostgreSQL.
    servers: () => ['postgres'],
    async explain(_h, endings) {
      for (const e of [...endings].reverse()) {
        const m = DBOS_ERROR.exec(e.output);
        if (m)
          return {
            where: `worker ${e.name} (${e.signal ?? `exit code ${e.exitCode}`})`,
            error: `${m[1]}: ${m[2]}`.slice(0, 300),
            kind: m[1]!,
          };
      }
      return null;
    },
    retention,
  };
}
