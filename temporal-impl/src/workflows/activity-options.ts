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
 *   connection). A dead worker is found by the heartbeat timeout long before this.
 * - retry initialInterval: the pause between the timed-out attempt and the next one. Naive keeps
 *   the SDK default (1s, doubling, unlimited attempts); hardened uses 200ms-500ms with a cap.
 * - The sticky queue's schedule-to-start timeout (1s, a Worker option in worker.ts) is how long a
 *   workflow task waits on the dead worker's sticky queue before any worker may take it.
 * - The workflow task timeout (5s, set at start in client.ts) only matters when the worker dies
 *   while it holds a workflow task.
 *
 * Expected recovery for a crash inside an activity: ~2s heartbeat + 0.2s-1s backoff + the time a
 * replacement worker needs to start (it loads a prebuilt bundle).
 */
import type { ActivityOptions, RetryPolicy } from '@temporalio/workflow';
import type { Variant } from '@vendor-review/domain/pure';

export const HEARTBEAT_TIMEOUT = '2s';
export const WORKFLOW_TASK_TIMEOUT = '5s';

export type StepKind = 'pure' | 'web' | 'model' | 'effect' | 'deliveryWait' | 'deadLetter';

/** Error types that no retry can fix. The activities raise PermanentError as non-retryable anyway; listing it here also covers any path that throws it raw. */
const NON_RETRYABLE = ['PermanentError', 'InvalidRequestError', 'UnsupportedStateVersionError'];

const hardenedRetry: Record<StepKind, RetryPolicy> = {
  // Pure steps only fail on a bug or bad state; a second attempt tells us which.
  pure: { maximumAttempts: 2, initialInterval: '200ms', backoffCoefficient: 2, nonRetryableErrorTypes: NON_RETRYABLE },
  // 429/503/resets clear within a second or two.
  web: {
    maximumAttempts: 4,
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '2s',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
  // Each model attempt is paid: fewer attempts, longer pauses.
  model: {
    maximumAttempts: 3,
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '4s',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
  // Tracker note / outbox insert: idempotent by key, so retrying is safe.
  effect: {
    maximumAttempts: 5,
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '2s',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
  deliveryWait: {
    maximumAttempts: 5,
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '4s',
    nonRetryableErrorTypes: NON_RETRYABLE,
  },
  // Losing the dead letter itself would lose the evidence: keep trying for a while.
  deadLetter: { maximumAttempts: 20, initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s' },
};

const startToClose: Record<StepKind, string> = {
  pure: '10s',
  web: '20s',
  model: '60s',
  effect: '20s',
  deliveryWait: '60s',
  deadLetter: '20s',
};

/** Hardened caps, exported so tests and reports can say "stops at N". */
export const HARDENED_MAX_ATTEMPTS: Record<StepKind, number> = Object.fromEntries(
  Object.entries(hardenedRetry).map(([k, p]) => [k, p.maximumAttempts ?? 0]),
) as Record<StepKind, number>;

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
    ...(variant === 'hardened' ? { retry: hardenedRetry[kind] } : {}),
  };
}

/** VERIFY as a local activity (workflow v2): it is pure and fast, so it needs no task queue round trip. */
export function localVerifyOptions(variant: Variant) {
  return {
    startToCloseTimeout: startToClose.pure,
    ...(variant === 'hardened' ? { retry: hardenedRetry.pure } : {}),
  };
}
