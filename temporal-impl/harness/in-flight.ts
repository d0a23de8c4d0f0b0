import type { Client } from '@temporalio/client';
import { workerNameOf, type InFlightTask } from '@vendor-review/conformance';
import { stepOf, workflowTaskClaims } from './durable-record.ts';
import { readHistory } from './history.ts';
import { workflowIdFor } from '../src/identity.ts';

/** temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED: handed to a poller. */
const STARTED = 2;
/** temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED. */
const WORKFLOW_TASK_STARTED = 2;

/**
 * The run's pending activities as the server keeps them: the attempt it is on and, once the server
 * has handed that attempt to a poller, which worker it went to. The history says none of this until
 * the activity closes (its start event is written with the close, naming the last attempt only).
 * And the workflow task a worker holds, when one is started: a worker frozen between two activities
 * holds one, and its timeout hands the run's next move to another hand-out (workflowTaskClaims).
 */
export async function pendingTasks(client: Client, runId: string): Promise<InFlightTask[]> {
  const description = await client.workflow.getHandle(workflowIdFor(runId)).describe();
  const activities = (description.raw.pendingActivities ?? []).map((p): InFlightTask => ({
    step: stepOf(p.activityId ?? undefined, p.activityType?.name ?? undefined),
    attempt: p.attempt ?? 1,
    worker: p.state === STARTED ? workerNameOf(p.lastWorkerIdentity) : null,
    fence: 'runtime',
  }));
  if (description.raw.pendingWorkflowTask?.state !== WORKFLOW_TASK_STARTED) return activities;
  return [...activities, ...workflowTaskClaims(await readHistory({ client, runId }), { open: true })];
}
