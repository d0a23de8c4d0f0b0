import { PermanentError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** SELECT_REQUIREMENT: pure; current = { requirementId: pending[0], candidates: [] }. */
export async function selectRequirement(state: ReviewState, _ports: Ports, _ctx: StepContext): Promise<StateUpdate> {
  const next = state.pending[0];
  if (next === undefined)
    throw new PermanentError('SELECT_REQUIREMENT reached with no pending requirement', 'nothing-pending');
  return { current: { requirementId: next, candidates: [] } };
}
