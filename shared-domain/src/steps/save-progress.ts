import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** SAVE_PROGRESS: tracker note with ctx.idempotencyKey; progressNotes[req] = note id; pending minus req; current = null. Crash point: after-progress. */
export async function saveProgress(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  throw new Error('saveProgress: not implemented yet');
}
