import type { Mail, Ports, Receipt } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** The mail DELIVER sends, built from state alone so an outbox row can carry it. */
export function composeDelivery(state: ReviewState): Mail {
  throw new Error('composeDelivery: not implemented yet');
}

/** The side effect alone: send the mail with ctx.idempotencyKey. Crash point: after-deliver. Used directly by an outbox drainer. */
export async function sendDelivery(mail: Mail, ports: Ports, ctx: StepContext): Promise<Receipt> {
  throw new Error('sendDelivery: not implemented yet');
}

/** DELIVER: compose and send in one step (the naive way); delivery receipt. */
export async function deliver(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  const mail = composeDelivery(state);
  const receipt = await sendDelivery(mail, ports, ctx);
  return { delivery: { messageId: receipt.id, duplicate: receipt.duplicate, to: mail.to } };
}
