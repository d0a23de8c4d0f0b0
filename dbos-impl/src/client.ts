/**
 * What a client says to the worker's application, through DBOS's own client over the system
 * database (no call to a worker): enqueue a run on the queue the workers take runs from, and send
 * the person's decision to the run's workflow.
 */
import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { Decision } from '@vendor-review/pipeline';
import { APPROVAL_TOPIC, approvalKey, WORKFLOW_NAME, type ReviewInput } from './workflow.ts';

/** The queue the worker a team deploys takes runs from (worker.ts). */
export const REVIEW_QUEUE = 'review';

/** Enqueues the run once: its id is the workflow's, so a second enqueue of the same run is the same workflow. */
export function enqueueReview(client: DBOSClient, input: ReviewInput) {
  return client.enqueue({ workflowName: WORKFLOW_NAME, queueName: REVIEW_QUEUE, workflowID: input.runId }, input);
}

/** The person's decision; one key per run makes a second send the same message. */
export function sendApproval(client: DBOSClient, runId: string, decision: Decision): Promise<void> {
  return client.send(runId, decision, APPROVAL_TOPIC, approvalKey(runId));
}
