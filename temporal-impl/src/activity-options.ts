/**
 * Timeouts and retry policies, per variant and per kind of step. These numbers decide how long a
 * dead worker's work waits before another worker takes it, so they are chosen, not defaulted:
 *
 * - heartbeatTimeout 2s: every activity heartbeats every 300ms (the worker flushes heartbeats at
 *   most every 500ms, see worker.ts), so the server notices a SIGKILLed worker's activity about
 *   2s after its last heartbeat, and schedules the retry. This is the main term of the recovery time.
 *   A run may set its own in its input (definitions.ts): the input is in the history, so a replay
 *   schedules with the value the run started with.
 * - startToCloseTimeout: bounds one attempt on a LIVE worker whose call hangs (slow or dropped
 *   connection). A dead worker is found by the heartbeat timeout long before this. Hardened retries
 *   a timeout without counting it (hardenedRetry below), so each is set above the port's own
 *   timeout (web 10 s, model 60 s): a hung call ends as the port's TransientError, an own error
 *   that counts, before the server's timeout could end it uncounted.
 * - retry: naive keeps the SDK default (1s, doubling, unlimited attempts, every error); hardened
 *   takes the backoff of the one retry rule (domain retry-rule.ts) and leaves the cap to the
 *   activity, which counts only the step's own errors (see hardenedRetry below).
 * - The sticky queue's schedule-to-start timeout (1s, a Worker option in worker.ts) is how long a
 *   workflow task waits on the dead worker's sticky queue before any worker may take it.
 * - The workflow task timeout (5s, set at start in client.ts) only matters when the worker dies
 *   while it holds a workflow task.
 *
 * Expected recovery for a crash inside an activity: ~2s heartbeat + the rule's backoff (0.2s-0.5s for a first retry) + the time a
 * replacement worker needs to start (it loads a prebuilt bundle).
 */
import type { ActivityOptions, RetryPolicy } from '@temporalio/workflow';
import { retryRuleFor, type RetryStepKind, type Variant } from '@vendor-review/pipeline/pure';

export const HEARTBEAT_TIMEOUT = '2s';
export const WORKFLOW_TASK_TIMEOUT = '5s';

/** The rule's kinds (domain retry-rule.ts), and the dead letter's own write, which is Temporal's alone. */
export type StepKind = RetryStepKind | 'deadLetter';

/** Error types that no retry can fix. The activities raise them as non-retryable anyway; listing them here also covers any path that throws one raw. */
const NON_RETRYABLE = ['PermanentError', 'InvalidRequestError', 'UnsupportedStateVersionError'];

/**
 * The hardened policy, derived from the one rule. The departure, and why: the server's attempt
 * number counts a heartbeat or start-to-close timeout (a worker killed, frozen or cut off) like
 * an error of the step's own, so the cap is NOT the server's. The server retries without limit,
 * and the activity counts the step's own errors in PostgreSQL (own-errors.ts) and
 * fails non-retryable when they reach the rule's cap: a lost machine spends no attempt. The
 * server's backoff still grows with its own attempt number, so a pause after a lost worker is
 * spaced like one after an error (never shorter than the rule's).
 */
function hardenedRetry(kind: RetryStepKind): RetryPolicy {
  const { backoff } = retryRuleFor(kind);
  // No maximumAttempts: unlimited on the server (the SDK refuses 0, which the server would read so).
  return {
    initialInterval: backoff.initialMs,
    backoffCoefficient: backoff.factor,
    maximumInterval: backoff.maxMs,
    nonRetryableErrorTypes: NON_RETRYABLE,
  };
}

/** Losing the dead letter itself would lose the evidence: keep trying for a while, whatever the error. */
const DEAD_LETTER_RETRY: RetryPolicy = {
  maximumAttempts: 20,
  initialInterval: '500ms',
  backoffCoefficient: 2,
  maximumInterval: '10s',
};

const retryFor = (kind: StepKind): RetryPolicy => (kind === 'deadLetter' ? DEAD_LETTER_RETRY : hardenedRetry(kind));

const startToClose: Record<StepKind, string> = {
  pure: '10s',
  page: '20s',
  model: '90s',
  effect: '20s',
  delivery: '60s',
  deadLetter: '20s',
};

/** `heartbeatMs` comes from the workflow's input (a run's own setting); absent, the default above. */
export function activityOptions(
  variant: Variant,
  kind: StepKind,
  activityId: string,
  heartbeatMs?: number,
): ActivityOptions {
  return {
    activityId,
    startToCloseTimeout: startToClose[kind],
    heartbeatTimeout: heartbeatMs === undefined ? HEARTBEAT_TIMEOUT : heartbeatMs,
    // naive: no `retry` at all, i.e. the SDK default (1s, x2, up to 100s, unlimited attempts, retries everything).
    ...(variant === 'hardened' ? { retry: retryFor(kind) } : {}),
  };
}

/**
 * VERIFY as a local activity (workflow v2): it is pure and fast, so it needs no task queue round
 * trip. Its retries are the hardened policy's, without a cap too: a local activity's attempt
 * number lives in the worker that runs the workflow task and starts again in the one that replays
 * it, so the activity counts its own errors in PostgreSQL like any other (own-errors.ts).
 */
export function localVerifyOptions(variant: Variant) {
  return {
    startToCloseTimeout: startToClose.pure,
    ...(variant === 'hardened' ? { retry: hardenedRetry('pure') } : {}),
  };
}
