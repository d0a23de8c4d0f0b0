/**
 * Business run id → Temporal workflow id, one-to-one and reversible. The Temporal run id (one
 * execution of that workflow id) is returned by startRun and shown next to both in reports.
 */
const PREFIX = 'vendor-review/';

export function workflowIdFor(runId: string): string {
  return `${PREFIX}${runId}`;
}

export function runIdFromWorkflowId(workflowId: string): string | null {
  return workflowId.startsWith(PREFIX) ? workflowId.slice(PREFIX.length) : null;
}
