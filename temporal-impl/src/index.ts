/** @vendor-review/temporal: the vendor review on Temporal. What the compare harness calls. */
import { fileURLToPath } from 'node:url';

/** Start a worker process with `node --import tsx <WORKER_ENTRY>`; see worker.ts for its env. */
export const WORKER_ENTRY: string = fileURLToPath(new URL('./worker.ts', import.meta.url));

export { buildWorkflowBundle, WORKFLOWS_PATH } from './bundle.ts';
export {
  setupDatabase,
  openStore,
  OUTBOX_TABLE,
  DEAD_LETTER_TABLE,
  type Store,
  type OutboxRow,
  type DeadLetterRow,
} from './postgres-store.ts';
export { startRun, approveRun, getRun, waitForRun, RunNotFoundError, type RunStatus, type RunView } from './client.ts';
export {
  readHistory,
  fetchHistoryJson,
  summarizeHistory,
  type HistoryEventSummary,
  type HistoryJson,
} from './history.ts';
export { workflowIdFor, runIdFromWorkflowId } from './identity.ts';
export { sdkDownloadedTemporal } from './sdk-fallback.ts';
export { HEARTBEAT_TIMEOUT, WORKFLOW_TASK_TIMEOUT, HARDENED_MAX_ATTEMPTS } from './workflows/activity-options.ts';
export { VARIANTS, type Variant, type ApprovalDecision, type VendorReviewInput } from './workflows/definitions.ts';
export { STICKY_SCHEDULE_TO_START_TIMEOUT, MAX_HEARTBEAT_THROTTLE } from './worker-options.ts';
export { HEARTBEAT_EVERY_MS } from './activities/heartbeat.ts';
