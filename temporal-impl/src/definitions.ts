/**
 * The workflow's public surface: its input, the signal a human sends, the query the harness reads.
 * Imported by the workflow (inside the sandbox) and by the client, so it holds nothing but
 * definitions and types.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ReviewState, Variant } from '@vendor-review/pipeline/pure';

export interface VendorReviewInput {
  /** Business run id; the workflow id is derived from it (see identity.ts). */
  runId: string;
  /** Untrusted review request as the customer sent it; VALIDATE parses it. */
  request: unknown;
  variant: Variant;
  /**
   * Per-run timing, part of the input so that a replay sees the same value the first execution
   * used (a worker's own constant would differ between deploys). Absent: the defaults of
   * activity-options.ts, which is also what every history recorded before this field reads as.
   */
  timeouts?: RunTimeouts;
}

export interface RunTimeouts {
  /** How long the server waits for an activity's heartbeat before it gives the attempt up as lost. */
  heartbeatMs?: number;
}

export interface ApprovalDecision {
  approved: boolean;
  by: string;
  note?: string;
}

export type WorkflowStatus = 'running' | 'awaiting-approval' | 'completed' | 'failed';

export interface ReviewView {
  status: WorkflowStatus;
  state: ReviewState;
  identity: { runId: string; workflowId: string; runtimeRunId: string };
}

export const approveSignal = defineSignal<[ApprovalDecision]>('approve');
export const reviewQuery = defineQuery<ReviewView>('review');

/** Memo key the workflow keeps current, so a client can see "awaiting approval" even while no worker is alive to answer a query. */
export const STATUS_MEMO_KEY = 'reviewStatus';
