import type { Client } from '@temporalio/client';
import { workerNameOf, type InFlightTask } from '@vendor-review/conformance';
import { stepOf } from './durable-record.ts';
import { workflowIdFor } from '../src/identity.ts';

/** temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED: handed to a poller. */
const STARTED = 2;

/**
 * The run's pending activities as the server keeps them: the attempt it is on and, once the server
 * has handed that attempt to a poller, which worker it went to. The history says none of this until
 * the activity closes (its start event is written with the close, naming the last attempt only).
 */
export async function pendingActivities(client: Client, runId: string): Promise<InFlightTask[]> {
  const description = await client.workflow.getHandle(workflowIdFor(runId)).describe();
  return (description.raw.pendingActivities ?? []).map((p) => ({
    step: stepOf(p.activityId ?? undefined, p.activityType?.name ?? undefined),
    attempt: p.attempt ?? 1,
    worker: p.state === STARTED ? workerNameOf(p.lastWorkerIdentity) : null,
    fence: 'runtime' as const,
  }));
}
