/**
 * What `pnpm bench` measures of DBOS (the contract: RuntimeBench in
 * @vendor-review/conformance): the review in this process, naive and hardened, against the
 * plain runner's floor, and what a finished run leaves in DBOS's tables and ours. Overheads are in
 * PostgreSQL commits: DBOS journals each step in one. No bare or replayed configurations yet, no
 * throughput or recovery sweep.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { newRunId, type ReviewRequestInput, type Variant } from '@vendor-review/pipeline';
import { variantReviews, type RuntimeBench } from '@vendor-review/conformance';
import pg from 'pg';
import { appNameFor } from '../identity.ts';
import { setupDatabase } from '../../src/store.ts';
import { APPROVAL_TOPIC, approvalKey, makeVendorReview, WORKFLOW_NAME, type WorkflowDeps } from '../../src/workflow.ts';

const TABLES = [
  ['dbos.workflow_status', 'workflow_uuid'],
  ['dbos.operation_outputs', 'workflow_uuid'],
  ['dbos.workflow_events', 'workflow_uuid'],
  ['dbos.notifications', 'destination_uuid'],
  ['dbos_outbox', 'run_id'],
] as const;

export const bench: RuntimeBench = {
  unit: 'commit',

  async inProcess(env) {
    await setupDatabase(env.databaseUrl);
    const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
    pool.on('error', () => {}); // the bench stops its PostgreSQL with this pool's clients idle
    const deps: WorkflowDeps = { ports: env.ports, worker: 'bench', pool, gate: null };
    // One DBOS per process: registered before launch, under an application of the bench's own.
    const review = DBOS.registerWorkflow(
      makeVendorReview(() => deps),
      { name: WORKFLOW_NAME },
    );
    const started = performance.now();
    DBOS.setConfig({
      name: appNameFor(`bench-${process.pid}`),
      systemDatabaseUrl: env.databaseUrl,
      executorID: `bench-${process.pid}`,
      applicationVersion: `bench-${process.pid}`,
      runMigrations: false,
      logLevel: 'warn',
    });
    await DBOS.launch();
    const workerStartMs = performance.now() - started;

    const run = async (request: ReviewRequestInput, variant: Variant) => {
      const runId = newRunId(`db-bench-${variant}`);
      const handle = await DBOS.startWorkflow(review, { workflowID: runId })({ runId, variant, request });
      // The decision waits in DBOS's messages until the workflow asks for it.
      await DBOS.send(runId, { approved: true, by: 'bench' }, APPROVAL_TOPIC, approvalKey(runId));
      const state = await handle.getResult();
      return { ok: !state.failure, id: runId };
    };
    return {
      workerStartMs,
      perStep: async ({ request }) => variantReviews('DBOS', run)(request),
      storage: {
        modes: ['naive', 'hardened'],
        how: `rows of ${TABLES.map(([t]) => t).join(', ')} for the run, bytes as stored (pg_column_size)`,
        async measure(mode, request) {
          const r = await run(request, mode as Variant);
          const tables = await Promise.all(
            TABLES.map(async ([table, key]) => {
              const { rows } = await pool.query(
                `SELECT count(*)::int AS n, coalesce(sum(pg_column_size(t.*)), 0)::int AS bytes FROM ${table} t WHERE ${key} = $1`,
                [r.id],
              );
              return { table, rows: rows[0].n as number, bytes: rows[0].bytes as number };
            }),
          );
          return {
            ok: r.ok,
            bytes: tables.reduce((s, t) => s + t.bytes, 0),
            rows: tables.reduce((s, t) => s + t.rows, 0),
            tables,
          };
        },
      },
      async close() {
        await DBOS.shutdown();
        await pool.end();
      },
    };
  },
};
