import { PermanentError } from '../errors.ts';
import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';
import { currentRequirement } from './requirement-of.ts';

/** The note a reviewer sees in the tracker; deterministic, so a replayed note says the same thing. */
export function progressNoteText(state: ReviewState, requirementId: string): string {
  const v = state.verdicts[requirementId];
  if (!v)
    throw new PermanentError(
      `SAVE_PROGRESS: requirement "${requirementId}" has no verdict yet (VERIFY must run first)`,
      'no-verdict',
    );
  const sources = v.evidence.map((e) => new URL(e.url).pathname).join(', ') || 'no evidence on the pages read';
  return `${state.request.vendor.name} / ${requirementId}: ${v.status} (confidence ${v.confidence.toFixed(2)}); sources: ${sources}`;
}

/** SAVE_PROGRESS: tracker note with ctx.idempotencyKey; progressNotes[req] = note id; pending minus req; current = null. */
export async function saveProgress(state: ReviewState, ports: Ports, ctx: StepContext): Promise<StateUpdate> {
  const { requirement } = currentRequirement(state, 'SAVE_PROGRESS');
  const receipt = await ports.tracker.note(
    { runId: state.runId, requirementId: requirement.id, text: progressNoteText(state, requirement.id) },
    callMeta(ctx),
  );
  return {
    progressNotes: { [requirement.id]: receipt.id },
    pending: state.pending.filter((id) => id !== requirement.id),
    current: null,
  };
}
