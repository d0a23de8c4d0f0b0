import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** DISCOVER: GET the vendor's sitemap through ports.web; set pages. */
export async function discover(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  throw new Error('discover: not implemented yet');
}
