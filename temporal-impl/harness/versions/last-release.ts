/**
 * The workflow as release v1 shipped it, frozen here so that the drills and the fixtures keep
 * running last release's code whatever today's (src/workflows.ts) becomes: fine granularity
 * only, VERIFY a scheduled activity. With `verify: 'local'` it is the v2 change applied without
 * patched(), never shipped: replaying a v1 history through it must fail. It shares today's
 * sandbox-safe parts (the signal and the query, the activity options, what an activity is handed,
 * the dead letter's helpers), which v2 did not change.
 *
 * Runs in the workflow sandbox, as today's does.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertMemo,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import {
  applyUpdate,
  hasMoreRequirements,
  initialState,
  type ReviewState,
  type StateUpdate,
} from '@vendor-review/pipeline/pure';
import type { Activities } from '../../src/activities.ts';
import { activityOptions, localVerifyOptions, type StepKind } from '../../src/activity-options.ts';
import { stepInput, type ArgPassing, type StateStep } from '../../src/step-input.ts';
import {
  approveSignal,
  reviewQuery,
  STATUS_MEMO_KEY,
  type ApprovalDecision,
  type VendorReviewInput,
  type WorkflowStatus,
} from '../../src/definitions.ts';
import { attemptsOf, describeFailure, StepFailed, summarize } from '../../src/dead-letter.ts';

/** Where VERIFY runs: v1's scheduled activity, or the v2 change's local one. */
export type VerifyAs = 'activity' | 'local';

export function lastReleaseWorkflow(verify: VerifyAs) {
  return async function vendorReview(input: VendorReviewInput): Promise<ReviewState> {
    const { workflowId, runId: runtimeRunId } = workflowInfo();
    const { variant } = input;
    const heartbeatMs = input.timeouts?.heartbeatMs;
    // hardened hands each activity only what its step reads (step-input.ts); naive the whole state.
    const passing: ArgPassing = variant === 'hardened' ? 'slice' : 'whole';
    // VALIDATE parses the request; until then the state carries it as received.
    let state = initialState(input.runId, input.request as ReviewState['request']);
    let status: WorkflowStatus = 'running';
    let decision: ApprovalDecision | undefined;

    setHandler(approveSignal, (d) => {
      decision ??= d; // the first decision wins; a second click changes nothing
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
      input?: unknown,
    ): Promise<R> => {
      const acts = proxyActivities<Activities>(
        activityOptions(variant, kind, activityId, heartbeatMs) as ActivityOptions,
      );
      try {
        return await call(acts);
      } catch (err) {
        if (err instanceof ActivityFailure)
          throw new StepFailed({ step: name, activityId, kind, input: input ?? summarize(state) }, err);
        throw err;
      }
    };
    const args = (step: StateStep) => ({ state: stepInput(step, state, passing), variant });
    const merge = (update: StateUpdate) => {
      state = applyUpdate(state, update);
    };

    try {
      merge(await step('pure', 'VALIDATE', 'VALIDATE', (a) => a.validate(args('validate'))));
      merge(await step('page', 'DISCOVER', 'DISCOVER', (a) => a.discover(args('discover'))));

      const bound = state.pending.length + 1;
      for (let n = 1; hasMoreRequirements(state); n++) {
        if (n > bound)
          throw ApplicationFailure.nonRetryable(
            `requirement loop did not shrink pending after ${bound} rounds`,
            'LoopGuard',
          );
        merge(
          await step('pure', 'SELECT_REQUIREMENT', `SELECT_REQUIREMENT#${n}`, (a) =>
            a.selectRequirement(args('selectRequirement')),
          ),
        );
        const req = state.current?.requirementId;
        if (!req)
          throw ApplicationFailure.nonRetryable('SELECT_REQUIREMENT chose no requirement', 'NoCurrentRequirement');
        merge(await step('pure', 'SELECT_PAGE', `SELECT_PAGE:${req}`, (a) => a.selectPage(args('selectPage'))));

        // FETCH fans out: one activity per candidate page, all scheduled at once. A sibling that
        // completed is an event in history and is never run again, whatever happens to the others.
        const candidates = state.current?.candidates ?? [];
        const before = state;
        const pages = await Promise.all(
          candidates.map((url, index) => {
            const target = { url, index, of: candidates.length };
            return step(
              'page',
              'FETCH',
              `FETCH:${req}:${index}`,
              (a) => a.fetchPage({ state: stepInput('fetchPage', before, passing, url), variant, target }),
              { target, requirementId: req },
            );
          }),
        );
        pages.forEach(merge);

        merge(await step('model', 'EXTRACT', `EXTRACT:${req}`, (a) => a.extract(args('extract'))));
        merge(await runVerify(verify, variant, state, req, { heartbeatMs, passing }));
        merge(
          await step('effect', 'SAVE_PROGRESS', `SAVE_PROGRESS:${req}`, (a) => a.saveProgress(args('saveProgress'))),
        );
      }

      merge(await step('model', 'DRAFT', 'DRAFT', (a) => a.draft(args('draft'))));

      // AWAIT_APPROVAL: the question is recorded by an activity, then the workflow simply waits.
      // Waiting costs no worker: the signal is stored in history even while no worker is alive.
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
        if (variant === 'naive') {
          merge(await step('effect', 'DELIVER', 'DELIVER', (a) => a.deliver(args('deliver'))));
        } else {
          // Outbox: the activity writes the mail once (keyed); the next sends it (or a drainer, after a crash).
          const { key } = await step('effect', 'DELIVER', 'DELIVER:outbox', (a) =>
            a.enqueueDelivery(args('enqueueDelivery')),
          );
          merge(await step('delivery', 'DELIVER', 'DELIVER:sent', (a) => a.awaitDelivery({ key })));
        }
      }
      setStatus('completed');
      return state;
    } catch (err) {
      if (!(err instanceof StepFailed) || variant === 'naive') throw err instanceof StepFailed ? err.failure : err;
      const { attempted, failure } = err;
      const attempts = attemptsOf(failure);
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
        // Even the dead letter could not be written: fail the run with that failure, never loop.
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

async function runVerify(
  verify: VerifyAs,
  variant: VendorReviewInput['variant'],
  state: ReviewState,
  req: string,
  o: { heartbeatMs: number | undefined; passing: ArgPassing },
): Promise<StateUpdate> {
  const args = { state: stepInput('verify', state, o.passing), variant };
  try {
    if (verify === 'local') return await proxyLocalActivities<Activities>(localVerifyOptions(variant)).verify(args);
    return await proxyActivities<Activities>(
      activityOptions(variant, 'pure', `VERIFY:${req}`, o.heartbeatMs) as ActivityOptions,
    ).verify(args);
  } catch (err) {
    if (err instanceof ActivityFailure)
      throw new StepFailed({ step: 'VERIFY', activityId: `VERIFY:${req}`, kind: 'pure', input: summarize(state) }, err);
    throw err;
  }
}
