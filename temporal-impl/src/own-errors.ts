import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  PermanentError,
  retryRuleFor,
  TransientError,
  type RetryStepKind,
  type Variant,
} from '@vendor-review/pipeline';
import { isConnectionLoss } from '@vendor-review/worker-io';
import type { Store } from './postgres-store.ts';
import { toActivityFailure } from './activity-failure.ts';

/**
 * A step's error, counted as the step's own before it leaves the activity (hardened). The count is
 * a row per (workflow run, activity id) in PostgreSQL, so it survives the attempt and the worker;
 * a heartbeat or start-to-close timeout never reaches this code, so a lost machine spends nothing.
 * The server's attempt number is never the count: it goes up with every lost worker.
 *
 * - Our store losing its connection (a PostgreSQL restart) is transient, like a dropped HTTP call.
 * - An attempt the server has already taken away (its cancellation signal fired: the heartbeat
 *   timed out while this worker was frozen or cut off) is not the step's error: the woken worker's
 *   failure reaches no history, so it is not counted either.
 * - When the count cannot be written (PostgreSQL restarting, a frozen worker's dead connection),
 *   the attempt fails as a transient store error, uncounted: the step is tried again after the
 *   server's backoff, and its count runs one error late, never early.
 * - A local activity counts in the same row: it runs in the worker that runs the workflow task,
 *   and its in-process attempt number starts again in the worker that replays the task.
 */
export async function failStep(
  err: unknown,
  o: { variant: Variant; kind: RetryStepKind; store: Store | undefined },
): Promise<unknown> {
  const ctx = Context.current();
  const { info } = ctx;
  const own =
    isConnectionLoss(err) && !(err instanceof TransientError)
      ? new TransientError(`store unreachable: ${(err as Error).message}`, 'store-connection-lost')
      : err;
  const rule = retryRuleFor(o.kind);
  if (o.variant === 'naive') return toActivityFailure(own, o.variant, { ownErrors: info.attempt, rule });
  if (ctx.cancellationSignal.aborted) return retryableUncounted(own);
  if (!o.store)
    return toActivityFailure(
      new PermanentError(
        `this worker has no DATABASE_URL: the hardened retry rule counts own errors in PostgreSQL (${describe(own)})`,
        'no-database',
      ),
      o.variant,
      { ownErrors: 0, rule },
    );
  let ownErrors: number;
  try {
    ownErrors = await o.store.recordStepError({
      runtimeRunId: info.workflowExecution?.runId ?? 'unknown-run',
      activityId: info.activityId,
      error: describe(own),
    });
  } catch (e) {
    // A store error, whatever the step's was: the server retries it (a PermanentError type it would not).
    return ApplicationFailure.create({
      type: 'TransientError',
      message: `own error not counted (store unreachable: ${(e as Error).message}): ${describe(own)}`,
      nonRetryable: false,
    });
  }
  return toActivityFailure(own, o.variant, { ownErrors, rule });
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Its failure reaches no history (the task token is stale); retryable, so nothing reads it as a give-up. */
function retryableUncounted(err: unknown): ApplicationFailure {
  const error = err instanceof Error ? err : new Error(String(err));
  return ApplicationFailure.create({ type: error.name, message: error.message, nonRetryable: false });
}
