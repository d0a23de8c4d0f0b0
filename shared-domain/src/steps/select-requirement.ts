import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** SELECT_REQUIREMENT: pure; current = { requirementId: pending[0], candidates: [] }. */
export async function selectRequirement(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  throw new Error('selectRequirement: not implemented yet');
}
