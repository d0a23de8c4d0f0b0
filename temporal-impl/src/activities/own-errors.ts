import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { retryRuleFor, TransientError, type RetryStepKind, type Variant } from '@vendor-review/pipeline';
import { isConnectionLoss } from '@vendor-review/worker-io';
import type { Store } from '../postgres-store.ts';
import { toActivityFailure } from './failures.ts';

/**
 * A step's error, counted as the step's own before it leaves the activity (hardened). The count is
 * a row per (workflow run, activity id) in PostgreSQL, so it survives the attempt and the worker;
 * a heartbeat or start-to-close timeout never reaches this code, so a lost machine spends nothing.
 *
 * - Our store losing its connection (a PostgreSQL restart) is transient, like a dropped HTTP call.
 * - An attempt the server has already taken away (its cancellation signal fired: the heartbeat
 *   timed out while this worker was frozen or cut off) is not the step's error: the woken worker's
 *   failure reaches no history, so it is not counted either.
 * - A local activity runs in the worker that runs the workflow, so it cannot outlive a lost
 *   machine: its own attempt number is its count. So is the server's attempt number where there
 *   is no store, or when the count cannot be written: then a lost machine does spend an attempt,
 *   the pre-rule behaviour, rather than an error going uncounted forever.
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
  const ownErrors = await countOwn(own, o.store).catch((e: unknown) => {
    process.stderr.write(`own-error count not written (${(e as Error).message}); using attempt ${info.attempt}\n`);
    return info.attempt;
  });
  return toActivityFailure(own, o.variant, { ownErrors, rule });
}

async function countOwn(err: unknown, store: Store | undefined): Promise<number> {
  const { info } = Context.current();
  if (info.isLocal || !store) return info.attempt;
  return store.recordStepError({
    runtimeRunId: info.workflowExecution?.runId ?? 'unknown-run',
    activityId: info.activityId,
    error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
  });
}

/** Its failure reaches no history (the task token is stale); retryable, so nothing reads it as a give-up. */
function retryableUncounted(err: unknown): ApplicationFailure {
  const error = err instanceof Error ? err : new Error(String(err));
  return ApplicationFailure.create({ type: error.name, message: error.message, nonRetryable: false });
}
