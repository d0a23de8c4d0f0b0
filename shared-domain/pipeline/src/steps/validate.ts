import type { Ports } from '../ports.ts';
import { parseReviewRequest } from '../request.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** VALIDATE: parse state.request with parseReviewRequest (PermanentError on bad input); set pending = requirement ids. */
export async function validate(state: ReviewState, _ports: Ports, _ctx: StepContext): Promise<StateUpdate> {
  const request = parseReviewRequest(state.request);
  return { request, pending: request.requirements.map((r) => r.id), current: null };
}
