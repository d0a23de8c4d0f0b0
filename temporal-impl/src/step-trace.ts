import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { StepTrace } from '@vendor-review/worker-io';
import { runIdFromWorkflowId } from './identity.ts';

/**
 * With TRACE_STEPS=1 (a person watching, `pnpm lab worker`): each activity attempt as it starts and
 * ends, named as its history names it ("activity FETCH:soc2:0"), through the SDK's own interceptor
 * so no activity changes. The calls inside it are traced by the ports.
 */
export function traceActivities(trace: StepTrace): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      execute: (input, next) => {
        const { activityId, activityType, attempt, workflowExecution } = ctx.info;
        const workflowId = workflowExecution?.workflowId ?? 'unknown-workflow';
        const runId = runIdFromWorkflowId(workflowId) ?? workflowId;
        // The workflow names most activities by step; one it leaves to the SDK gets a bare sequence number.
        const what = /^\d+$/.test(activityId) ? `${activityType} #${activityId}` : activityId;
        return trace.step(runId, `activity ${what}`, attempt, () => next(input));
      },
    },
  });
}
