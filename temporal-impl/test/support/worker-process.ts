import { WorkerProcess } from '@vendor-review/testbed';
import { HARNESS_WORKER_ENTRY } from '../../harness/paths.ts';

export interface WorkerEnv {
  address: string;
  taskQueue: string;
  worldUrl: string;
  databaseUrl?: string;
  bundlePath?: string;
  crashPlan?: string;
  namespace?: string;
}

/**
 * A real Temporal worker process (the harness's entry, src's worker with the crash points laid
 * over it: `node --import tsx harness/worker.ts`) through the one worker-process module the
 * harness uses, with exactly this environment.
 */
export function startWorkerProcess(name: string, o: WorkerEnv): WorkerProcess {
  return new WorkerProcess(name, {
    entry: HARNESS_WORKER_ENTRY,
    env: {
      TEMPORAL_ADDRESS: o.address,
      TEMPORAL_NAMESPACE: o.namespace ?? 'default',
      TASK_QUEUE: o.taskQueue,
      WORLD_URL: o.worldUrl,
      DATABASE_URL: o.databaseUrl,
      WORKFLOW_BUNDLE: o.bundlePath,
      CRASH_PLAN: o.crashPlan,
    },
  });
}

/** Resolves once the worker polls (it prints `WORKER READY`); fails with its output if it exits first. */
export function ready(w: WorkerProcess): Promise<string> {
  return w.waitForLine(/^WORKER READY /, 240_000);
}
