/**
 * The vendor-review pipeline with fewer durable boundaries (domain granularity.ts), as workflows
 * of their own: the same activities wrap the same shared steps, and a stage activity runs several
 * of them back to back, so one activity completion (one history event) records them all.
 *
 * - coarse: REVIEW (validate, discover, every requirement to its tracker note) → the approval →
 *   SEND (draft and mail in one activity, sent straight from it: no outbox boundary before the effect).
 * - per-requirement: VALIDATE, DISCOVER, one REQUIREMENT activity per requirement, DRAFT, the
 *   approval, DELIVER as in the fine workflow (the outbox in hardened).
 *
 * Runs in the workflow sandbox: it may import @temporalio/workflow, @vendor-review/domain/pure and
 * types, nothing else.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  proxyActivities,
  setHandler,
  upsertMemo,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import {
  applyUpdate,
  hasMoreRequirements,
  initialState,
  type Granularity,
  type ReviewState,
  type StateUpdate,
} from '@vendor-review/domain/pure';
import type { Activities } from '../activities.ts';
import { activityOptions, type StepKind } from './activity-options.ts';
import { stepInput, type ArgPassing, type StateStep } from './step-input.ts';
import {
  approveSignal,
  reviewQuery,
  STATUS_MEMO_KEY,
  type ApprovalDecision,
  type VendorReviewInput,
  type WorkflowStatus,
} from './definitions.ts';
import { attemptsOf, describeFailure, StepFailed, summarize } from './review.ts';

export function makeStagedReview(granularity: Exclude<Granularity, 'fine'>) {
  return async function stagedReview(input: VendorReviewInput): Promise<ReviewState> {
    const { workflowId, runId: runtimeRunId } = workflowInfo();
    const { variant } = input;
    const heartbeatMs = input.timeouts?.heartbeatMs;
    // As in the fine workflow: hardened hands each activity only what it reads (step-input.ts).
    const passing: ArgPassing = variant === 'hardened' ? 'slice' : 'whole';
    let state = initialState(input.runId, input.request as ReviewState['request']);
    let status: WorkflowStatus = 'running';
    let decision: ApprovalDecision | undefined;

    setHandler(approveSignal, (d) => {
      decision ??= d; // the first decision wins
    });
    setHandler(reviewQuery, () => ({ status, state, identity: { runId: input.runId, workflowId, runtimeRunId } }));
    const setStatus = (next: WorkflowStatus) => {
      status = next;
      upsertMemo({ [STATUS_MEMO_KEY]: next });
    };
    const step = async <R>(
      kind: StepKind,
      name: string,
      activityId: string,
      call: (acts: Activities) => Promise<R>,
    ): Promise<R> => {
      const acts = proxyActivities<Activities>(
        activityOptions(variant, kind, activityId, heartbeatMs) as ActivityOptions,
      );
      try {
        return await call(acts);
      } catch (err) {
        if (err instanceof ActivityFailure)
          throw new StepFailed({ step: name, activityId, kind, input: summarize(state) }, err);
        throw err;
      }
    };
    const args = (s: StateStep) => ({ state: stepInput(s, state, passing), variant });
    const merge = (update: StateUpdate) => {
      state = applyUpdate(state, update);
    };

    try {
      if (granularity === 'coarse') {
        // A stage holds paid model calls: the model kind's timeouts and its few, spaced attempts.
        merge(await step('model', 'REVIEW', 'REVIEW', (a) => a.review(args('review'))));
      } else {
        merge(await step('pure', 'VALIDATE', 'VALIDATE', (a) => a.validate(args('validate'))));
        merge(await step('web', 'DISCOVER', 'DISCOVER', (a) => a.discover(args('discover'))));
        const bound = state.pending.length + 1;
        for (let n = 1; hasMoreRequirements(state); n++) {
          if (n > bound)
            throw ApplicationFailure.nonRetryable(
              `requirement loop did not shrink pending after ${bound} rounds`,
              'LoopGuard',
            );
          merge(
            await step('model', 'REQUIREMENT', `REQUIREMENT#${n}`, (a) =>
              a.researchRequirement(args('researchRequirement')),
            ),
          );
        }
        merge(await step('model', 'DRAFT', 'DRAFT', (a) => a.draft(args('draft'))));
      }

      await step('pure', 'AWAIT_APPROVAL', 'AWAIT_APPROVAL', (a) => a.requestApproval(args('requestApproval')));
      setStatus('awaiting-approval');
      await condition(() => decision !== undefined);
      setStatus('running');
      const d = decision as ApprovalDecision;
      merge(
        await step('pure', 'AWAIT_APPROVAL', 'AWAIT_APPROVAL:decision', (a) =>
          a.applyApproval({ ...args('applyApproval'), decision: d }),
        ),
      );

      if (state.approval?.approved !== false) {
        if (granularity === 'coarse') {
          merge(await step('model', 'SEND', 'SEND', (a) => a.send(args('send'))));
        } else if (variant === 'naive') {
          merge(await step('effect', 'DELIVER', 'DELIVER', (a) => a.deliver(args('deliver'))));
        } else {
          const { key } = await step('effect', 'DELIVER', 'DELIVER:outbox', (a) =>
            a.enqueueDelivery(args('enqueueDelivery')),
          );
          merge(await step('deliveryWait', 'DELIVER', 'DELIVER:sent', (a) => a.awaitDelivery({ key })));
        }
      }
      setStatus('completed');
      return state;
    } catch (err) {
      if (!(err instanceof StepFailed) || variant === 'naive') throw err instanceof StepFailed ? err.failure : err;
      const { attempted, failure } = err;
      const attempts = attemptsOf(failure, attempted.kind);
      const recorded = await step('deadLetter', 'DEAD_LETTER', 'DEAD_LETTER', (a) =>
        a.recordDeadLetter({
          run: { runId: input.runId, workflowId, runtimeRunId },
          step: attempted.step,
          activityId: attempted.activityId,
          input: attempted.input,
          error: describeFailure(failure),
          attempts,
        }),
      ).catch((e: unknown) => {
        throw e instanceof StepFailed ? e.failure : e;
      });
      merge(recorded);
      setStatus('failed');
      throw ApplicationFailure.create({
        type: 'DeadLettered',
        nonRetryable: true,
        message: `run ${input.runId} dead-lettered at ${attempted.step} (${attempted.activityId}) after ${attempts} attempt(s): ${describeFailure(failure)}`,
        details: [state],
      });
    }
  };
}
