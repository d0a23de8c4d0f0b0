import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** VERIFY: pure; keep only quotes that occur in the fetched text; confirmed / denied / contradictory / missing. */
export async function verify(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  throw new Error('verify: not implemented yet');
}
