/**
 * The worker, composed: it registers the review workflow and launches DBOS under the names its
 * configuration gives it (identity.ts). Launch recovers the workflows an earlier process of the
 * same executor id and version left PENDING; with a queue named, the worker also takes the runs a
 * client enqueues there (client.ts). Nothing happens on import: the workflow is registered when
 * the worker launches, as DBOS requires.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { stepGate, UsageError, workerPool, workerPorts } from '@vendor-review/worker-io';
import { APP_NAME } from './identity.ts';
import { makeVendorReview, WORKFLOW_NAME, type StepWrapper, type WorkflowDeps } from './workflow.ts';

/** What the worker is told by its environment. */
export interface LaunchConfig {
  databaseUrl: string;
  executorID: string;
  /** The worker's name in the ledger. */
  worker: string;
  appName: string;
  /** Unset: DBOS's own, a hash of the registered workflows' source. */
  appVersion?: string;
}

/** What a deployment may lay over the worker; the worker a team deploys passes only a queue. */
export interface LaunchOptions {
  /** Around the code of every step DBOS runs (workflow.ts): DBOS itself offers no hook before a step. */
  wrapStep?: StepWrapper;
  /** Asked to stop, let hardened runs' steps in flight be recorded first (otherwise die of the signal, as Node does). */
  drainOnSigterm?: boolean;
  /** The queue whose runs this worker takes (client.ts enqueues there); unset, it only recovers and starts its own. */
  queue?: string;
}

export interface LaunchedWorker {
  vendorReview: ReturnType<typeof makeVendorReview>;
  /** DBOS shut down, the database let go. */
  shutdown(): Promise<void>;
}

/** Environment: DATABASE_URL, DBOS_EXECUTOR_ID, WORKER_NAME, DBOS_APP_NAME, DBOS_APP_VERSION. */
export function readLaunchConfig(env: NodeJS.ProcessEnv = process.env): LaunchConfig {
  const databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) throw new UsageError('DATABASE_URL is not set');
  const executorID = env.DBOS_EXECUTOR_ID;
  if (!executorID) throw new UsageError('DBOS_EXECUTOR_ID is not set');
  return {
    databaseUrl,
    executorID,
    worker: env.WORKER_NAME ?? 'A',
    appName: env.DBOS_APP_NAME || APP_NAME,
    ...(env.DBOS_APP_VERSION ? { appVersion: env.DBOS_APP_VERSION } : {}),
  };
}

export async function launchReviewWorker(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedWorker> {
  // The outbox holds a transaction across the mail's send: a server restart then must fail the
  // query, not crash the worker.
  const pool = workerPool(config.databaseUrl, 3);
  const gate = stepGate(options.drainOnSigterm ?? false);
  const { ports, trace } = workerPorts(config.worker);
  const deps: WorkflowDeps = { ports, worker: config.worker, pool, gate, trace, wrapStep: options.wrapStep ?? null };
  // Registered before launch, as DBOS requires: recovery looks the workflow up by this name.
  const vendorReview = DBOS.registerWorkflow(
    makeVendorReview(() => deps),
    { name: WORKFLOW_NAME },
  );
  DBOS.setConfig({
    name: config.appName,
    systemDatabaseUrl: config.databaseUrl,
    systemDatabasePoolSize: 4,
    executorID: config.executorID,
    ...(config.appVersion ? { applicationVersion: config.appVersion } : {}),
    runMigrations: false,
    logLevel: 'warn',
  });
  await DBOS.launch();
  if (options.queue) await DBOS.registerQueue(options.queue);
  // Launch has re-enqueued whatever this executor and version left PENDING: from here it may run them.
  process.stdout.write(`READY executor=${DBOS.executorID} version=${DBOS.applicationVersion}\n`);
  return {
    vendorReview: vendorReview as LaunchedWorker['vendorReview'],
    async shutdown() {
      await DBOS.shutdown();
      await pool.end();
    },
  };
}
