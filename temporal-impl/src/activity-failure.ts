import { ApplicationFailure } from '@temporalio/common';
import { givesUp, type RetryRule, type Variant } from '@vendor-review/pipeline';

/** Attached to every hardened failure so the workflow can write the count into the dead letter. */
export interface FailureDetail {
  /** The step's own errors so far, this one included (not the server's attempt number). */
  attempt: number;
  code?: string;
  status?: number;
}

/**
 * How a step's error leaves the activity.
 * naive: as thrown. The SDK turns it into a retryable failure whatever it is, and the default
 * policy retries it forever: a 422 is retried like a 503.
 * hardened: the one retry rule decides (domain retry-rule.ts): an error it does not retry, or the
 * step's `ownErrors`-th at its cap, becomes a non-retryable ApplicationFailure (the dead letter);
 * a transient one below the cap stays retryable (the server's policy has no cap of its own).
 */
export function toActivityFailure(err: unknown, variant: Variant, o: { ownErrors: number; rule: RetryRule }): unknown {
  if (variant === 'naive' || err instanceof ApplicationFailure) return err;
  const error = err instanceof Error ? err : new Error(String(err));
  const { code, status } = error as Error & { code?: unknown; status?: unknown };
  const detail: FailureDetail = {
    attempt: o.ownErrors,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof status === 'number' ? { status } : {}),
  };
  return ApplicationFailure.create({
    type: error.name,
    message: error.message,
    nonRetryable: givesUp(o.rule, error, o.ownErrors),
    details: [detail],
  });
}
