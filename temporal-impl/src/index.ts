/**
 * @vendor-review/temporal: the vendor review on Temporal, as a team would deploy it (the workflow,
 * its activities, the worker, the client, the store). The harness plugin is `../harness/`.
 */
export { WORKER_ENTRY, WORKFLOW_BUNDLER } from './paths.ts';
export { runWorker, type WorkerExtensions } from './run-worker.ts';

export { buildWorkflowBundle, cachedWorkflowBundle, WORKFLOWS_PATH } from './bundle.ts';
export {
  setupDatabase,
  openStore,
  OUTBOX_TABLE,
  DEAD_LETTER_TABLE,
  type Store,
  type DeadLetterRow,
} from './postgres-store.ts';
export { startRun, approveRun, getRun, runStatus, waitForRun, RunNotFoundError, type RunDetails } from './client.ts';
export { workflowIdFor, runIdFromWorkflowId } from './identity.ts';
export { HEARTBEAT_TIMEOUT, WORKFLOW_TASK_TIMEOUT } from './activity-options.ts';
export { type ApprovalDecision, type VendorReviewInput } from './definitions.ts';
export { STICKY_SCHEDULE_TO_START_TIMEOUT, MAX_HEARTBEAT_THROTTLE } from './worker-options.ts';
export { HEARTBEAT_EVERY_MS } from './heartbeat.ts';
