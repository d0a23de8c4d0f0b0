import { PermanentError } from '../errors.ts';
import type { Mail, Ports, Receipt } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';

/** The mail DELIVER sends, built from state alone so an outbox row can carry it. */
export function composeDelivery(state: ReviewState): Mail {
  if (!state.draft) throw new PermanentError('DELIVER: there is no draft to send', 'no-draft');
  if (state.approval?.approved === false)
    throw new PermanentError(`DELIVER: the review was rejected by ${state.approval.by}`, 'rejected');
  const approvedBy = state.approval
    ? `\n\n---\nApproved by ${state.approval.by}${state.approval.note ? `: ${state.approval.note}` : ''}.`
    : '';
  return {
    to: state.request.requester.email,
    subject: `Vendor review: ${state.request.vendor.name} [${state.runId}]`,
    body: `Hello ${state.request.requester.name},\n\n${state.draft.text}${approvedBy}\n`,
  };
}

/** The side effect alone: send the mail with ctx.idempotencyKey. Used directly by an outbox drainer. */
export async function sendDelivery(mail: Mail, ports: Ports, ctx: StepContext): Promise<Receipt> {
  return ports.mailer.send(mail, callMeta(ctx));
}

/** DELIVER: compose and send in one step (the naive way); delivery receipt. */
export async function deliver(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  const mail = composeDelivery(state);
  const receipt = await sendDelivery(mail, ports, ctx);
  return { delivery: { messageId: receipt.id, duplicate: receipt.duplicate, to: mail.to } };
}
