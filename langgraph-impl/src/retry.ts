import type { RetryPolicy } from '@langchain/langgraph';
import { isTransient } from '@vendor-review/domain';

/**
 * The hardened variant's per-node retry policy. Only the domain's TransientError (429, 503,
 * timeouts, dropped connections) is retried; a PermanentError (404, 422, invalid request) and any
 * unexpected error (a bug will not fix itself) go straight to the dead letter. The cap is not
 * optional: without it a node that always fails looks stuck rather than failed.
 *
 * The node wrapper (nodes.ts) needs the same numbers to recognise the last attempt, so they live
 * here, once. RETRY_INITIAL_MS lets tests shorten the backoff without changing its shape.
 */
export const RETRY = {
  maxAttempts: 4,
  initialIntervalMs: Number(process.env.RETRY_INITIAL_MS ?? 250),
  backoffFactor: 2,
  maxIntervalMs: 4_000,
} as const;

export function shouldRetry(err: unknown): boolean {
  return isTransient(err);
}

export function transientRetryPolicy(): RetryPolicy {
  return {
    maxAttempts: RETRY.maxAttempts,
    initialInterval: RETRY.initialIntervalMs,
    backoffFactor: RETRY.backoffFactor,
    maxInterval: RETRY.maxIntervalMs,
    // LangGraph's jitter adds up to a whole second per retry; one worker per thread has nobody to de-synchronise from.
    jitter: false,
    retryOn: shouldRetry,
    logWarning: false,
  };
}

/** True when the wrapper should let LangGraph's retry loop have the error (it will try again). */
export function willBeRetried(err: unknown, attempt: number): boolean {
  return shouldRetry(err) && attempt < RETRY.maxAttempts;
}
