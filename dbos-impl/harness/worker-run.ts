/**
 * One cell's worker, as the harness drives it: src/launch.ts launched under the cell's names, and
 * in the same process what a client does for one run: start its workflow if nobody has (with the
 * run id as the workflow id: a second start of the same id attaches instead of running it twice),
 * pass on a decision that came before it existed, and leave once it has ended.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { START_AGAIN_ENV, startCalled } from '@vendor-review/instrument';
import { parseCli, UsageError, workerPool } from '@vendor-review/worker-io';
import { launchReviewWorker, readLaunchConfig, type LaunchOptions } from '../src/launch.ts';
import { DBOS_RUNS } from '../src/store.ts';
import { APPROVAL_TOPIC, approvalKey } from '../src/workflow.ts';
import { versionCheckLine, VERSION_CHECK_EXIT } from './version-check.ts';

export const WORKER_RUN_USAGE = `usage: dbos worker --run <runId>
  launches DBOS (recovering the run if it is pending under this executor id), starts the run's
  workflow if nobody has, and leaves once it has ended
  (DATABASE_URL, WORLD_URL, WORKER_NAME, DBOS_APP_NAME, DBOS_EXECUTOR_ID, DBOS_APP_VERSION)`;

/** The worker of one run, from its command line and environment to its exit code. */
export async function runOneRun(options: Pick<LaunchOptions, 'wrapStep'> = {}): Promise<number> {
  const args = parseCli({ usage: WORKER_RUN_USAGE, options: { run: { type: 'string' } } });
  const runId = args.values.run;
  if (!runId) throw new UsageError('--run <runId> is required');
  const config = readLaunchConfig();
  const pool = workerPool(config.databaseUrl, 1);
  try {
    const run = await DBOS_RUNS.load(pool, runId);
    if (!run) throw new UsageError(`no DBOS run ${runId}`);
    const hardened = run.variant === 'hardened';
    const worker = await launchReviewWorker(config, { ...options, drainOnSigterm: hardened });
    // A workflow that exists (launch recovered it, or another worker runs it) is only attached to:
    // starting it again would attach as well, with DBOS's warning about the queue name.
    const existing = await DBOS.getWorkflowStatus(runId);
    const recorded = existing?.applicationVersion;
    if (hardened && existing?.status === 'PENDING' && recorded && recorded !== DBOS.applicationVersion) {
      process.stderr.write(`${versionCheckLine(runId, recorded, DBOS.applicationVersion)}\n`);
      await worker.shutdown();
      return VERSION_CHECK_EXIT;
    }
    // START_AGAIN: the first checkpoint's worker B, retrying the start with the same id whatever it finds.
    const startAgain = process.env[START_AGAIN_ENV] === '1';
    if (!existing || startAgain) await startCalled(`run=${runId}`);
    const handle =
      existing && !startAgain
        ? DBOS.retrieveWorkflow(runId)
        : await DBOS.startWorkflow(worker.vendorReview, { workflowID: runId })({
            runId,
            variant: run.variant,
            granularity: run.granularity,
            request: run.request,
          });
    // A decision that came before the workflow existed (adapter.approve kept it): send it on now.
    const early = await DBOS_RUNS.keptDecision(pool, runId);
    if (early) await DBOS.send(runId, early, APPROVAL_TOPIC, approvalKey(runId));
    await handle.getResult().catch(() => undefined); // an ERROR workflow is the run's outcome, not the worker's
    await worker.shutdown();
    return 0;
  } finally {
    await pool.end();
  }
}
