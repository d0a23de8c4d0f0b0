import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** EXTRACT: one model call per requirement over the fetched candidate pages; findings[requirementId]. Crash points: boundary (at start), mid-model, after-model. */
export async function extract(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  throw new Error('extract: not implemented yet');
}
