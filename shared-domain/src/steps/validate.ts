import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** VALIDATE: parse state.request with parseReviewRequest (PermanentError on bad input); set pending = requirement ids. */
export async function validate(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  throw new Error('validate: not implemented yet');
}
