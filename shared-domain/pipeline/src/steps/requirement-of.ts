import { PermanentError } from '../errors.ts';
import type { Requirement } from '../request.ts';
import type { ReviewState } from '../state.ts';

/** The requirement the run is working on; a step reached without one is a wiring bug, not bad luck. */
export function currentRequirement(
  state: ReviewState,
  step: string,
): { requirement: Requirement; candidates: string[] } {
  if (!state.current) throw new PermanentError(`${step} reached with no current requirement`, 'no-current-requirement');
  const { requirementId, candidates } = state.current;
  const requirement = state.request.requirements.find((r) => r.id === requirementId);
  if (!requirement)
    throw new PermanentError(`${step}: requirement "${requirementId}" is not in the request`, 'unknown-requirement');
  return { requirement, candidates };
}
