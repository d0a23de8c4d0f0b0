/**
 * The worker of one run, composed: it launches DBOS under the names its configuration gives it
 * (identity.ts). Launch recovers the run's workflow if an earlier worker of the same executor id
 * and version left it PENDING; otherwise the worker starts it, with the run id as the workflow id
 * (a second start of the same id attaches to the existing workflow instead of running it twice).
 * It returns its exit code once the workflow has ended. Nothing happens on import: the workflow is
 * registered when the worker runs, before launch.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import {
  parseCli,
  survivesConnectionLoss,
  StepGate,
  UsageError,
  workerPorts,
  leaveAfterStepsInFlight,
} from '@vendor-review/worker-io';
import pg from 'pg';
import { APP_NAME } from './identity.ts';
import { versionCheckLine, VERSION_CHECK_EXIT } from './version-check.ts';
import { DBOS_RUNS } from './store.ts';
import { APPROVAL_TOPIC, approvalKey, makeVendorReview, type StepWrapper, type WorkflowDeps } from './workflow.ts';

export const WORKER_USAGE = `usage: dbos worker --run <runId>
  launches DBOS (recovering the run if it is pending under this executor id), starts the run's
  workflow if nobody has, and leaves once it has ended
  (DATABASE_URL, WORLD_URL, WORKER_NAME, DBOS_APP_NAME, DBOS_EXECUTOR_ID, DBOS_APP_VERSION)`;

/** What a deployment may lay over the worker; the worker a team deploys passes none. */
export interface WorkerOptions {
  /** Around the code of every step DBOS runs (workflow.ts): DBOS itself offers no hook before a step. */
  wrapStep?: StepWrapper;
}

/** The worker, from its command line and environment to its exit code. */
export async function runWorker(options: WorkerOptions = {}): Promise<number> {
  const args = parseCli({ usage: WORKER_USAGE, options: { run: { type: 'string' } } });
  const runId = args.values.run;
  if (!runId) throw new UsageError('--run <runId> is required');
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new UsageError('DATABASE_URL is not set');
  const executorID = process.env.DBOS_EXECUTOR_ID;
  if (!executorID) throw new UsageError('DBOS_EXECUTOR_ID is not set');
  const worker = process.env.WORKER_NAME ?? 'A';
  // The outbox holds a transaction across the mail's send: a server restart then must fail the
  // query, not crash the worker with an unhandled 'error' on the client.
  const pool = survivesConnectionLoss(new pg.Pool({ connectionString: databaseUrl, max: 3 }));
  pool.on('error', () => {});
  try {
    const run = await DBOS_RUNS.load(pool, runId);
    if (!run) throw new UsageError(`no DBOS run ${runId}`);
    const hardened = run.variant === 'hardened';
    const gate = hardened ? new StepGate() : null;
    const { ports, trace } = workerPorts(worker);
    const deps: WorkflowDeps = {
      ports,
      worker,
      pool: hardened ? pool : null,
      gate,
      trace,
      wrapStep: options.wrapStep ?? null,
    };
    // Registered before launch, as DBOS requires: recovery looks the workflow up by this name.
    const vendorReview = DBOS.registerWorkflow(
      makeVendorReview(() => deps),
      { name: 'vendorReview' },
    );
    leaveAfterStepsInFlight(gate);
    const applicationVersion = process.env.DBOS_APP_VERSION || undefined;
    DBOS.setConfig({
      name: process.env.DBOS_APP_NAME || APP_NAME,
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
    const early = await DBOS_RUNS.keptDecision(pool, runId);
    if (early) await DBOS.send(runId, early, APPROVAL_TOPIC, approvalKey(runId));
    await handle.getResult().catch(() => undefined); // an ERROR workflow is the run's outcome, not the worker's
    await DBOS.shutdown();
    return 0;
  } finally {
    await pool.end();
  }
}
