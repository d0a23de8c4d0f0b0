/**
 * The harness's worker: src's worker (run-worker.ts) with the crash points laid over it from
 * outside. The instrument arms the plan in CRASH_PLAN and watches the process's HTTP client for
 * the call points; this entry adds the two the HTTP client cannot see, through the SDK's own
 * extension point, an activity interceptor:
 * - a step beginning (`first-step`, `boundary`): awaited before the activity's code runs;
 * - the run durably waiting for its approval (`awaiting-approval`): the status the workflow keeps
 *   in its memo, read from the server for each run this worker has run an activity of;
 * - the run's start call (`start-call`), made here before the worker polls when the adapter hands
 *   the start to the run's workers (START_RUN, start-run.ts).
 */
import type { Client } from '@temporalio/client';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { installCrashPoints, stepBegins, waitArmed, watchForWait } from '@vendor-review/instrument';
import { runCli } from '@vendor-review/worker-io';
import type { Activities } from '../src/activities.ts';
import { runStatus } from '../src/client.ts';
import { runIdFromWorkflowId } from '../src/identity.ts';
import { runWorker } from '../src/run-worker.ts';
import { startFromEnv } from './start-run.ts';

installCrashPoints();

/** The domain's step (or stage) each activity runs, by activity type. */
const STEP_OF: Record<keyof Activities, string> = {
  validate: 'VALIDATE',
  discover: 'DISCOVER',
  selectRequirement: 'SELECT_REQUIREMENT',
  selectPage: 'SELECT_PAGE',
  fetchPage: 'FETCH',
  extract: 'EXTRACT',
  verify: 'VERIFY',
  saveProgress: 'SAVE_PROGRESS',
  draft: 'DRAFT',
  review: 'REVIEW',
  researchRequirement: 'REQUIREMENT',
  send: 'SEND',
  requestApproval: 'AWAIT_APPROVAL',
  applyApproval: 'AWAIT_APPROVAL',
  deliver: 'DELIVER',
  enqueueDelivery: 'DELIVER',
  awaitDelivery: 'DELIVER',
  recordDeadLetter: 'DEAD_LETTER',
};

/** Runs (by workflow id) this worker has run an activity of, with the worker's own client to read them. */
const served = new Map<string, Client>();

const crashSites: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      const workflowId = ctx.info.workflowExecution?.workflowId;
      if (workflowId && waitArmed()) served.set(workflowId, ctx.client);
      await stepBegins(STEP_OF[ctx.info.activityType as keyof Activities] ?? ctx.info.activityType);
      return next(input);
    },
  },
});

/** The runs whose workflow has durably recorded that it waits for the approval (its memo, on the server). */
async function waiting(): Promise<string[]> {
  const views = await Promise.all(
    [...served].map(async ([workflowId, client]) => {
      const runId = runIdFromWorkflowId(workflowId);
      return runId ? { workflowId, view: await runStatus({ client, runId }) } : null;
    }),
  );
  const ids: string[] = [];
  for (const v of views) {
    if (!v) continue;
    if (v.view.status === 'awaiting-approval') ids.push(v.workflowId);
    else if (v.view.status !== 'running') served.delete(v.workflowId); // over: nothing more to watch
  }
  return ids;
}

watchForWait(waiting, 100);

runCli('worker', async () => {
  await startFromEnv();
  return runWorker({ interceptors: { activity: [crashSites] } });
});
