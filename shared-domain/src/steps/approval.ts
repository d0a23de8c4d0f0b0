import type { ReviewState, StateUpdate } from '../state.ts';

/** What a human is asked at AWAIT_APPROVAL. The runtime does the waiting; this is only the question. */
export function approvalQuestion(state: ReviewState): { runId: string; vendor: string; summary: string } {
  throw new Error('approvalQuestion: not implemented yet');
}

/** Fold the human's decision into state. A rejection is recorded and DELIVER is skipped. */
export function applyApproval(state: ReviewState, decision: { approved: boolean; by: string; note?: string }): StateUpdate {
  return { approval: { approved: decision.approved, by: decision.by, ...(decision.note ? { note: decision.note } : {}) } };
}
