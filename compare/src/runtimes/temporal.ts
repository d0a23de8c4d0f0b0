import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import * as temporal from '@vendor-review/temporal';
import { newRunId, type ReviewRequestInput } from '@vendor-review/domain';
import { fromTemporal, type DurableRecord } from '../durable.ts';
import type { Scenario } from '../scenarios.ts';
import type { WorkerSpec } from '../worker-process.ts';
import { APPROVER, type RunHandle, type RunView, type RuntimeAdapter } from './adapter.ts';

export interface TemporalAdapterOptions {
  address: string;
  namespace: string;
  databaseUrl: string;
  worldUrl: string;
  bundlePath: string;
  /** A prebuilt worker module; default: the TypeScript entry, run under tsx. */
  workerEntry?: string;
  /** Temporal UI base URL when the server is the user's own (runs are linked), else null. */
  uiUrl: string | null;
}

export function temporalUiLink(uiUrl: string, namespace: string, workflowId: string, runId: string): string {
  return `${uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}`;
}

/**
 * The hardened worker's outbox drainer takes any pending row in its table, whichever run it is for.
 * So that two hardened cells running at once never deliver (or crash on) each other's mail, each
 * hardened run gets its own PostgreSQL schema, chosen through the connection's search_path.
 */
export function withSearchPath(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function schemaForRun(databaseUrl: string, runId: string): Promise<string> {
  const schema = `compare_${runId.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`.slice(0, 63);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${client.escapeIdentifier(schema)}`);
  } finally {
    await client.end();
  }
  const url = withSearchPath(databaseUrl, schema);
  await temporal.setupDatabase(url);
  return url;
}

/** One task queue per run: workers of concurrent cells must never pick up each other's tasks. */
function taskQueueFor(runId: string): string {
  return `compare-${runId}`;
}

export async function createTemporalAdapter(o: TemporalAdapterOptions): Promise<RuntimeAdapter> {
  const connection = await Connection.connect({ address: o.address });
  const client = new Client({ connection, namespace: o.namespace });
  // getRun is cheap enough to poll: a describe, and a query only while the run is open.
  const view = async (h: RunHandle): Promise<RunView> => {
    const v = await temporal.getRun({ client, runId: h.runId });
    return { status: v.status, state: v.state, ...(v.reason ? { reason: v.reason } : {}) };
  };
  return {
    runtime: 'temporal',
    workerExitsWhenDone: false,
    isRetryableExit: () => false,
    async createRun(s: Scenario, request: ReviewRequestInput): Promise<RunHandle> {
      const runId = newRunId(s.variant === 'naive' ? 'tm-naive' : 'tm-hard');
      const taskQueue = taskQueueFor(runId);
      const databaseUrl = s.variant === 'hardened' ? await schemaForRun(o.databaseUrl, runId) : undefined;
      const started = await temporal.startRun({ client, taskQueue, request, variant: s.variant, runId });
      return {
        runId: started.runId,
        variant: s.variant,
        runtimeIds: { workflowId: started.workflowId, runtimeRunId: started.runtimeRunId },
        link: o.uiUrl ? temporalUiLink(o.uiUrl, o.namespace, started.workflowId, started.runtimeRunId) : null,
        durability: null,
        taskQueue,
        ...(databaseUrl ? { databaseUrl } : {}),
      };
    },
    workerSpec(h: RunHandle, crashPlan: string | null): WorkerSpec {
      return {
        entry: o.workerEntry ?? temporal.WORKER_ENTRY,
        env: {
          TEMPORAL_ADDRESS: o.address,
          TEMPORAL_NAMESPACE: o.namespace,
          TASK_QUEUE: h.taskQueue,
          // Naive runs have no outbox: their workers get no database, so they cannot drain anyone's rows.
          DATABASE_URL: h.databaseUrl,
          WORLD_URL: o.worldUrl,
          WORKFLOW_BUNDLE: o.bundlePath,
          CRASH_PLAN: crashPlan ?? undefined,
        },
      };
    },
    status: view,
    inspect: view,
    async approve(h: RunHandle): Promise<void> {
      await temporal.approveRun({ client, runId: h.runId, approved: true, by: APPROVER });
    },
    async durableRecord(h: RunHandle): Promise<DurableRecord> {
      return fromTemporal(await temporal.readHistory({ client, runId: h.runId }));
    },
    async close(): Promise<void> {
      await connection.close();
    },
  };
}
