import type { ReviewState, StateUpdate, VerdictStatus } from '../state.ts';

/** What a human is asked at AWAIT_APPROVAL. The runtime does the waiting; this is only the question. */
export function approvalQuestion(state: ReviewState): { runId: string; vendor: string; summary: string } {
  const statuses = Object.values(state.verdicts).map((v) => v.status);
  const count = (s: VerdictStatus) => statuses.filter((x) => x === s).length;
  const summary =
    `Send the review of ${state.request.vendor.name} to ${state.request.requester.email}? ` +
    `${count('confirmed')} confirmed, ${count('denied')} denied, ${count('contradictory')} contradictory, ${count('missing')} missing` +
    (state.draft ? '.' : ' (no draft yet).');
  return { runId: state.runId, vendor: state.request.vendor.name, summary };
}

/** Fold the human's decision into state. A rejection is recorded and DELIVER is skipped. */
export function applyApproval(
  _state: ReviewState,
  decision: { approved: boolean; by: string; note?: string },
): StateUpdate {
  return {
    approval: { approved: decision.approved, by: decision.by, ...(decision.note ? { note: decision.note } : {}) },
  };
}
