import type { ApprovalRequest, Ports } from '../ports.ts';
import type { ReviewState, StateUpdate, VerdictStatus } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';

/** What a human is asked at AWAIT_APPROVAL. The runtime does the waiting; this is only the question. */
export function approvalQuestion(state: ReviewState): ApprovalRequest {
  const statuses = Object.values(state.verdicts).map((v) => v.status);
  const count = (s: VerdictStatus) => statuses.filter((x) => x === s).length;
  const summary =
    `Send the review of ${state.request.vendor.name} to ${state.request.requester.email}? ` +
    `${count('confirmed')} confirmed, ${count('denied')} denied, ${count('contradictory')} contradictory, ${count('missing')} missing` +
    (state.draft ? '.' : ' (no draft yet).');
  return { runId: state.runId, vendor: state.request.vendor.name, summary };
}

/**
 * Tells the approver the review waits, before the run waits: the question, sent to the world with
 * the step's context (and its key in hardened), and returned, so a runtime records it as the step's
 * result. Where the call sits decides how often it is made: once where the runtime records the step,
 * again on every resume where the runtime re-runs it.
 */
export async function askApprover(state: ReviewState, ports: Ports, ctx: StepContext): Promise<ApprovalRequest> {
  const question = approvalQuestion(state);
  await ports.approver.notify(question, callMeta(ctx));
  return question;
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
