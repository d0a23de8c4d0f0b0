/**
 * The worker the harness runs: src/worker.ts's composition (run-worker.ts) with the crash points
 * laid over it from outside (crash-sites.ts). `installCrashPoints` comes first: it reads the plan,
 * refuses a bad one before anything starts, and lays the call sites over the HTTP clients.
 */
import { installCrashPoints, waitArmed } from '@vendor-review/instrument';
import { runCli } from '@vendor-review/worker-io';
import { createPool } from '../src/pool.ts';
import { runWorker } from '../src/run-worker.ts';
import { CommitSiteSaver, StepSites, watchRunsWaiting } from './crash-sites.ts';

installCrashPoints();

runCli('worker', async () => {
  const steps = new StepSites();
  const url = process.env.DATABASE_URL;
  // Watching costs a read a tick: only when the plan arms the wait.
  const watchPool = url && waitArmed() ? createPool(url, { max: 1 }) : null;
  const stopWatching = watchPool ? watchRunsWaiting(watchPool, steps.threads) : () => {};
  try {
    return await runWorker({ callbacks: [steps], newSaver: (pool, opts) => new CommitSiteSaver(pool, opts) });
  } finally {
    stopWatching();
    await watchPool?.end().catch(() => {});
  }
});
