/**
 * A DBOS worker for one run: `node worker.ts --run <runId>`. It launches DBOS under the run's
 * executor id (identity.ts): launch recovers the run's workflow if an earlier worker left it
 * PENDING; otherwise the worker starts it, with the run id as the workflow id (a second start
 * of the same id attaches to the existing workflow instead of running it twice). It leaves when
 * the workflow has ended. Environment: DATABASE_URL, WORLD_URL, CRASH_PLAN, WORKER_NAME,
 * DBOS_EXECUTOR_ID and DBOS_APP_VERSION (set by the adapter; a drill may change them), TRACE_STEPS
 * (`pnpm lab worker`: a line per step that runs and per call; a journaled step prints nothing, it does not run).
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import {
  createHttpPorts,
  parseCli,
  runCli,
  survivesConnectionLoss,
  StepGate,
  UsageError,
  stepTrace,
  traceWanted,
} from '@vendor-review/worker-io';
import { CrashPlanError, parseCrashPlan } from '@vendor-review/pipeline';
import pg from 'pg';
import { appNameFor } from './identity.ts';
import { versionCheckLine, VERSION_CHECK_EXIT } from './version-check.ts';
import { keptDecision, loadRun } from './store.ts';
import { APPROVAL_TOPIC, approvalKey, makeVendorReview, type WorkflowDeps } from './workflow.ts';

const USAGE = `usage: dbos worker --run <runId>
  launches DBOS (recovering the run if it is pending under this executor id), starts the run's
  workflow if nobody has, and leaves once it has ended
  (DATABASE_URL, WORLD_URL, CRASH_PLAN, WORKER_NAME, DBOS_EXECUTOR_ID, DBOS_APP_VERSION)`;

let deps: WorkflowDeps | null = null;
// Registered before launch, as DBOS requires: recovery looks the workflow up by this name.
const vendorReview = DBOS.registerWorkflow(
  makeVendorReview(() => {
    if (!deps) throw new Error('workflow ran before the worker was ready');
    return deps;
  }),
  { name: 'vendorReview' },
);

runCli('dbos worker', async () => {
  const args = parseCli({ usage: USAGE, options: { run: { type: 'string' } } });
  const runId = args.values.run;
  if (!runId) throw new UsageError('--run <runId> is required');
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new UsageError('DATABASE_URL is not set');
  const executorID = process.env.DBOS_EXECUTOR_ID;
  if (!executorID) throw new UsageError('DBOS_EXECUTOR_ID is not set');
  try {
    parseCrashPlan(process.env.CRASH_PLAN);
  } catch (err) {
    if (err instanceof CrashPlanError) throw new UsageError(err.message, { seeHelp: false });
    throw err;
  }
  const worker = process.env.WORKER_NAME ?? 'A';
  // The outbox holds a transaction across the mail's send: a server restart then must fail the
  // query, not crash the worker with an unhandled 'error' on the client.
  const pool = survivesConnectionLoss(new pg.Pool({ connectionString: databaseUrl, max: 3 }));
  pool.on('error', () => {});
  try {
    const run = await loadRun(pool, runId);
    if (!run) throw new UsageError(`no DBOS run ${runId}`);
    const hardened = run.variant === 'hardened';
    const gate = hardened ? new StepGate() : null;
    // The lab tags each line with the worker, its pid and the run, as the other runtimes' workers do.
    const trace = traceWanted(process.env)
      ? stepTrace((id, text) => process.stdout.write(`[worker ${worker} pid ${process.pid}] run ${id}: ${text}\n`))
      : null;
    deps = {
      ports: trace ? trace.ports(createHttpPorts()) : createHttpPorts(),
      worker,
      pool: hardened ? pool : null,
      gate,
      trace,
    };
    // Naive leaves on SIGTERM as Node does (at once); hardened finishes its steps in flight first.
    if (gate)
      process.once('SIGTERM', () => {
        void gate.close().then(() => {
          process.stderr.write('SIGTERM: the steps in flight are journaled; leaving the run to my successor\n');
          process.exit(0);
        });
      });
    const applicationVersion = process.env.DBOS_APP_VERSION || undefined;
    DBOS.setConfig({
      name: appNameFor(runId),
      systemDatabaseUrl: databaseUrl,
      systemDatabasePoolSize: 4,
      executorID,
      ...(applicationVersion ? { applicationVersion } : {}),
      runMigrations: false,
      logLevel: 'warn',
    });
    await DBOS.launch();
    // Launch has re-enqueued whatever this executor and version left PENDING: from here it may run them.
    process.stdout.write(`READY executor=${DBOS.executorID} version=${DBOS.applicationVersion}\n`);
    // A workflow that exists (launch recovered it, or another worker runs it) is only attached to:
    // starting it again would attach as well, with DBOS's warning about the queue name.
    const existing = await DBOS.getWorkflowStatus(runId);
    const recorded = existing?.applicationVersion;
    if (hardened && existing?.status === 'PENDING' && recorded && recorded !== DBOS.applicationVersion) {
      process.stderr.write(`${versionCheckLine(runId, recorded, DBOS.applicationVersion)}\n`);
      await DBOS.shutdown();
      return VERSION_CHECK_EXIT;
    }
    const handle = existing
      ? DBOS.retrieveWorkflow(runId)
      : await DBOS.startWorkflow(vendorReview, { workflowID: runId })({
          runId,
          variant: run.variant,
          granularity: run.granularity,
          request: run.request,
        });
    // A decision that came before the workflow existed (adapter.approve kept it): send it on now.
    const early = await keptDecision(pool, runId);
    if (early) await DBOS.send(runId, early, APPROVAL_TOPIC, approvalKey(runId));
    await handle.getResult().catch(() => undefined); // an ERROR workflow is the run's outcome, not the worker's
    await DBOS.shutdown();
    return 0;
  } finally {
    await pool.end();
  }
});
