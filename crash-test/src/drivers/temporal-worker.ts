import { resolve } from 'node:path';
import { writeEvent } from '../events.ts';
import type { TemporalJob } from '../job.ts';
import { activitiesOf, importUserModule } from '../load-app.ts';
import { importSdk } from '../resolve-sdk.ts';
import { stepBegins } from '../site.ts';

interface WorkerSdk {
  NativeConnection: { connect(o: { address: string }): Promise<{ close(): Promise<void> }> };
  Worker: { create(o: Record<string, unknown>): Promise<{ run(): Promise<void> }> };
}

/**
 * How long a workflow task may wait on a dead worker's sticky queue before any worker gets it. The
 * SDK's default is 10 s; the crash test shortens it so that a cell measures the runtime's recovery
 * of the work, not this wait, and says so in the report (STICKY_NOTE).
 */
export const STICKY_TIMEOUT = '1s';
export const STICKY_NOTE = `workers run with stickyQueueScheduleToStartTimeout ${STICKY_TIMEOUT} (the SDK's default, 10 s, adds up to 10 s to a resume after a kill)`;

/**
 * A Temporal worker on the cell's task queue: the user's activities (an object or a factory) and
 * the workflow bundle the harness built once, with an activity interceptor that reports each
 * activity beginning (a step). It runs until it is killed or asked to stop (SIGTERM, the SDK's own
 * graceful shutdown).
 */
export async function runTemporalWorker(job: TemporalJob): Promise<void> {
  const from = resolve(job.activitiesPath);
  const { NativeConnection, Worker } = await importSdk<WorkerSdk>(from, '@temporalio/worker');
  const activities = await activitiesOf(await importUserModule(job.activitiesPath, 'activities module'));
  const connection = await NativeConnection.connect({ address: job.address });
  const worker = await Worker.create({
    connection,
    namespace: job.namespace,
    taskQueue: job.taskQueue,
    workflowBundle: { codePath: job.bundlePath },
    activities,
    stickyQueueScheduleToStartTimeout: STICKY_TIMEOUT,
    interceptors: {
      activity: [
        (ctx: { info: { activityType: string } }) => ({
          inbound: {
            async execute(input: unknown, next: (i: unknown) => Promise<unknown>) {
              await stepBegins(ctx.info.activityType);
              return next(input);
            },
          },
        }),
      ],
    },
  });
  writeEvent(job.site.log, { e: 'ready', t: Date.now(), pid: process.pid });
  await worker.run();
  await connection.close();
}
