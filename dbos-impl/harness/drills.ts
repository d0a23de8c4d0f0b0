import { randomUUID } from 'node:crypto';
import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import type {
  DeployDrill,
  Footprint,
  Refusal,
  RetentionDrill,
  RunHandle,
  RuntimeAdapter,
  RuntimeDrills,
} from '@vendor-review/conformance';
import type pg from 'pg';
import { releaseVersion, WORKFLOW_RELEASE } from '../src/identity.ts';
import { hardenedVersionFor } from './identity.ts';
import { APPROVAL_TOPIC } from '../src/workflow.ts';
import { VERSION_CHECK } from './version-check.ts';

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

/** The serialization name a later release's serializer (an encryption codec) would record; DBOS 5.3 knows none such. */
export const FOREIGN_SERIALIZATION = 'binary/encrypted';

/** DBOS's words when a recorded value names a serialization it does not have (serialization.js). */
const UNKNOWN_SERIALIZATION = /deserialization type (\S+) is not available/;

export function dbosDrills(o: { pool: pg.Pool; client: DBOSClient; adapter: RuntimeAdapter }): RuntimeDrills {
  // Last release is an application version: DBOS ties a workflow to the version it was started
  // under and recovers it only in a process of that version. The code is today's (the state's shape
  // is not rewritten): what differs across the deploy, for DBOS, is the version the run recorded.
  const previousVersion = (runId: string) => hardenedVersionFor(runId, WORKFLOW_RELEASE - 1);
  const deploy: DeployDrill = {
    lastRelease: {
      previous: `a worker of the previous release's application version (${releaseVersion(WORKFLOW_RELEASE - 1)}+<run>)`,
      async previousWorker(h, opts) {
        const spec = o.adapter.workerSpec(h, opts);
        return { ...spec, env: { ...spec.env, DBOS_APP_VERSION: previousVersion(h.runId) } };
      },
      async leftByPrevious(h) {
        const wf = await o.client.getWorkflow(h.runId);
        const steps = (await o.client.listWorkflowSteps(h.runId)) ?? [];
        return `a workflow ${wf?.status ?? 'missing'} under application version ${wf?.applicationVersion ?? '?'}, ${steps.length} journaled steps`;
      },
      async nextWorker(h, { name }) {
        return o.adapter.workerSpec(h, { name, crashPlan: null });
      },
    },
    async foreignFormat(h) {
      // The approval as a client with a later release's serializer would send it: DBOS keeps the
      // serialization's name beside each value it records, and reads a value by that name.
      await o.pool.query(
        `INSERT INTO dbos.notifications (destination_uuid, topic, message, serialization, message_uuid) VALUES ($1, $2, $3, $4, $5)`,
        [h.runId, APPROVAL_TOPIC, Buffer.from(randomUUID()).toString('base64'), FOREIGN_SERIALIZATION, randomUUID()],
      );
      return `an approval message in DBOS's notifications recorded with serialization ${FOREIGN_SERIALIZATION} (a client deployed with a serializer the workers do not have)`;
    },
  };

  /** What DBOS recorded as the workflow's end, when that end is a value it could not read. */
  const recordedRefusal = async (runId: string): Promise<Refusal | null> => {
    const wf = await o.client.getWorkflow(runId).catch(() => undefined);
    if (!wf || wf.status !== 'ERROR') return null;
    const error = wf.error instanceof Error ? `${wf.error.name}: ${wf.error.message}` : String(wf.error);
    if (!UNKNOWN_SERIALIZATION.test(error)) return null;
    return {
      where: `the workflow, as DBOS recorded it (status ERROR, version ${wf.applicationVersion ?? '?'})`,
      error: error.split('\n')[0]!.slice(0, 300),
      kind: 'unknown-encoding',
    };
  };

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
    async explain(h, endings) {
      for (const e of [...endings].reverse()) {
        const checked = VERSION_CHECK.exec(e.output);
        if (checked)
          return {
            where: `worker ${e.name} (${e.signal ?? `exit code ${e.exitCode}`})`,
            error: checked[0],
            kind: 'version-mismatch',
          };
        const m = DBOS_ERROR.exec(e.output);
        if (m)
          return {
            where: `worker ${e.name} (${e.signal ?? `exit code ${e.exitCode}`})`,
            error: `${m[1]}: ${m[2]}`.slice(0, 300),
            kind: m[1]!,
          };
      }
      return recordedRefusal(h.runId);
    },
    deploy,
    retention,
  };
}
