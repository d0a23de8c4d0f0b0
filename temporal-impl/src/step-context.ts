import { Context } from '@temporalio/activity';
import { deriveIdempotencyKey, type StepContext, type StepName, type Variant } from '@vendor-review/pipeline';

/**
 * The StepContext a shared step sees, built from the activity's own info. The hardened key is
 * derived from the workflow run id and the activity id: both are fixed when the workflow
 * schedules the activity, so every retry of the same activity (on any worker) sends the same
 * key, and no other operation ever does.
 */
export function stepContext(step: StepName, variant: Variant, runId: string, worker: string): StepContext {
  const info = Context.current().info;
  const workflowId = info.workflowExecution?.workflowId ?? 'unknown-workflow';
  const runtimeRunId = info.workflowExecution?.runId ?? 'unknown-run';
  return {
    run: { runId, runtime: 'temporal', runtimeId: workflowId, runtimeRunId },
    step,
    attempt: info.attempt,
    worker,
    ...(variant === 'hardened' ? { idempotencyKey: deriveIdempotencyKey(runtimeRunId, info.activityId) } : {}),
  };
}

/**
 * The context of one step inside a stage activity (several steps, one activity): the activity's
 * own identity, and a key derived from the activity id plus the step and its parts, so every
 * retry of the activity sends the same key for the same step, and two steps never share one.
 */
export function stageStepContext(
  step: StepName,
  variant: Variant,
  runId: string,
  worker: string,
  keyParts: string[],
): StepContext {
  const ctx = stepContext(step, variant, runId, worker);
  if (variant !== 'hardened') return ctx;
  const info = Context.current().info;
  const runtimeRunId = info.workflowExecution?.runId ?? 'unknown-run';
  return { ...ctx, idempotencyKey: deriveIdempotencyKey(runtimeRunId, info.activityId, step, ...keyParts) };
}
