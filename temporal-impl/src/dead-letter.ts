/**
 * What the workflow writes into the dead letter when a step fails for good (hardened): which step,
 * with what input, after how many of its own errors, and why. Shared with last release's workflow
 * (harness/versions/), which v2 did not change here.
 *
 * Runs in the workflow sandbox: @temporalio/workflow, @vendor-review/pipeline/pure and types only.
 */
import { ApplicationFailure, TimeoutFailure, type ActivityFailure } from '@temporalio/workflow';
import type { ReviewState } from '@vendor-review/pipeline/pure';
import type { StepKind } from './activity-options.ts';

/** What the workflow knows about the step that failed for good; goes into the dead letter. */
export interface Attempted {
  /** A step's name, or a stage's (several steps in one activity: REVIEW, REQUIREMENT, SEND). */
  step: string;
  activityId: string;
  kind: StepKind;
  input: unknown;
}

export class StepFailed extends Error {
  constructor(
    readonly attempted: Attempted,
    readonly failure: ActivityFailure,
  ) {
    super(failure.message);
  }
}

/** The dead letter records what a person needs, not every fetched page. */
export function summarize(state: ReviewState) {
  return { runId: state.runId, request: state.request, pending: state.pending, current: state.current };
}

export function describeFailure(failure: ActivityFailure): string {
  const cause = failure.cause;
  if (cause instanceof ApplicationFailure) return `${cause.type ?? 'Error'}: ${cause.message}`;
  if (cause instanceof TimeoutFailure) return `timeout (${cause.timeoutType}): ${cause.message}`;
  return cause ? `${cause.name}: ${cause.message}` : failure.message;
}

/**
 * The step's own errors, as the last attempt reported them (own-errors.ts). A timeout
 * reports none, and is none of the step's own (hardened retries it without limit, so one reaches
 * the workflow only from a policy that is not ours): 0.
 */
export function attemptsOf(failure: ActivityFailure): number {
  const cause = failure.cause;
  if (cause instanceof ApplicationFailure) {
    const detail = cause.details?.[0] as { attempt?: unknown } | undefined;
    if (typeof detail?.attempt === 'number') return detail.attempt;
  }
  return 0;
}
