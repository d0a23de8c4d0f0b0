import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** SELECT_PAGE: pure; rank pages by the requirement's keywords; current.candidates = best N urls (never empty: falls back to the home page). */
export async function selectPage(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  throw new Error('selectPage: not implemented yet');
}
