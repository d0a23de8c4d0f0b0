import { ApplicationFailure } from '@temporalio/common';
import { isPermanent } from '@vendor-review/domain';
import type { Variant } from '@vendor-review/domain';

/** Attached to every hardened failure so the workflow can write the attempt count into the dead letter. */
export interface FailureDetail {
  attempt: number;
  code?: string;
  status?: number;
}

/**
 * How a step's error leaves the activity.
 * naive: as thrown. The SDK turns it into a retryable failure whatever it is, and the default
 * policy retries it forever: a 422 is retried like a 503.
 * hardened: a domain PermanentError becomes a non-retryable ApplicationFailure (one attempt, then
 * the dead letter); everything else stays retryable under the activity's capped policy.
 */
export function toActivityFailure(err: unknown, variant: Variant, attempt: number): unknown {
  if (variant === 'naive' || err instanceof ApplicationFailure) return err;
  const error = err instanceof Error ? err : new Error(String(err));
  const { code, status } = error as Error & { code?: unknown; status?: unknown };
  const detail: FailureDetail = {
    attempt,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof status === 'number' ? { status } : {}),
  };
  return ApplicationFailure.create({
    type: error.name,
    message: error.message,
    nonRetryable: isPermanent(error),
    details: [detail],
  });
}
