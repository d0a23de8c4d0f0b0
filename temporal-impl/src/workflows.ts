/**
 * The vendor-review pipeline as a Temporal workflow: control flow only. Every step runs in an
 * activity (activities.ts) that calls the shared domain step; the workflow keeps the ReviewState
 * and merges each result with the same applyUpdate the LangGraph channels use. This file is also
 * the workflow bundle's entry (paths.ts): today's code, i.e. v2 with its change guarded by
 * patched(), so histories written by v1 replay through the old branch and new runs take the new one.
 *
 * One body for every granularity (domain granularity.ts), exported as one workflow type each
 * (client.ts starts the one a run asks for): they share the approval, the delivery and the dead
 * letter, and differ in how many steps one activity runs. A stage activity runs several back to
 * back, so one activity completion (one history event) records them all.
 * - fine (`vendorReview`): an activity per step, VERIFY's v2 change included.
 * - per-requirement (`vendorReviewPerRequirement`): VALIDATE, DISCOVER, one REQUIREMENT activity per
 *   requirement, DRAFT, the approval, DELIVER as in fine (the outbox in hardened).
 * - coarse (`vendorReviewCoarse`): REVIEW (validate, discover, every requirement to its tracker
 *   note) → the approval → SEND (draft and mail in one activity, sent straight from it: no outbox
 *   boundary before the effect).
 *
 * Runs in the workflow sandbox: it may import @temporalio/workflow, @vendor-review/pipeline/pure and
 * types, nothing else (and this package's sandbox-safe files: activity-options.ts, step-input.ts,
 * definitions.ts, dead-letter.ts).
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  patched,
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
  type Granularity,
  type ReviewState,
  type StateUpdate,
} from '@vendor-review/pipeline/pure';
import type { Activities } from './activities.ts';
import { activityOptions, localVerifyOptions, type StepKind } from './activity-options.ts';
import { stepInput, type ArgPassing, type StateStep } from './step-input.ts';
import {
  approveSignal,
  reviewQuery,
  STATUS_MEMO_KEY,
  type ApprovalDecision,
  type VendorReviewInput,
  type WorkflowStatus,
} from './definitions.ts';
import { attemptsOf, describeFailure, StepFailed, summarize } from './dead-letter.ts';

/**
 * The v2 change: VERIFY (pure, fast) runs as a local activity instead of a scheduled one, behind
 * patched(), so a history v1 wrote (VERIFY a scheduled activity) replays through the old branch.
 */
const VERIFY_LOCAL_PATCH = 'verify-as-local-activity';

/** The workflow types: fine, today's default (the v1 code and its histories have no other). */
export const vendorReview = makeVendorReview();
/** The same pipeline with fewer durable boundaries (domain granularity.ts); started by client.ts per run. */
export const vendorReviewCoarse = makeVendorReview('coarse');
export const vendorReviewPerRequirement = makeVendorReview('per-requirement');

/** `granularity` defaults to fine: the v1 code and its histories have no other. */
function makeVendorReview(granularity: Granularity = 'fine') {
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
      if (granularity === 'coarse') {
        // A stage holds paid model calls: the model kind's timeouts and its few, spaced attempts.
        merge(await step('model', 'REVIEW', 'REVIEW', (a) => a.review(args('review'))));
      } else {
        merge(await step('pure', 'VALIDATE', 'VALIDATE', (a) => a.validate(args('validate'))));
        merge(await step('page', 'DISCOVER', 'DISCOVER', (a) => a.discover(args('discover'))));

        const bound = state.pending.length + 1;
        for (let n = 1; hasMoreRequirements(state); n++) {
          if (n > bound)
            throw ApplicationFailure.nonRetryable(
              `requirement loop did not shrink pending after ${bound} rounds`,
              'LoopGuard',
            );
          if (granularity === 'per-requirement') {
            // The whole round, from choosing the requirement to its tracker note, in one activity.
            merge(
              await step('model', 'REQUIREMENT', `REQUIREMENT#${n}`, (a) =>
                a.researchRequirement(args('researchRequirement')),
              ),
            );
            continue;
          }
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
          merge(await runVerify(variant, state, req, { heartbeatMs, passing }));
          merge(
            await step('effect', 'SAVE_PROGRESS', `SAVE_PROGRESS:${req}`, (a) => a.saveProgress(args('saveProgress'))),
          );
        }

        merge(await step('model', 'DRAFT', 'DRAFT', (a) => a.draft(args('draft'))));
      }

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
        if (granularity === 'coarse') {
          merge(await step('model', 'SEND', 'SEND', (a) => a.send(args('send'))));
        } else if (variant === 'naive') {
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
  variant: VendorReviewInput['variant'],
  state: ReviewState,
  req: string,
  o: { heartbeatMs: number | undefined; passing: ArgPassing },
): Promise<StateUpdate> {
  const useLocal = patched(VERIFY_LOCAL_PATCH);
  const args = { state: stepInput('verify', state, o.passing), variant };
  try {
    if (useLocal) return await proxyLocalActivities<Activities>(localVerifyOptions(variant)).verify(args);
    return await proxyActivities<Activities>(
      activityOptions(variant, 'pure', `VERIFY:${req}`, o.heartbeatMs) as ActivityOptions,
    ).verify(args);
  } catch (err) {
    if (err instanceof ActivityFailure)
      throw new StepFailed({ step: 'VERIFY', activityId: `VERIFY:${req}`, kind: 'pure', input: summarize(state) }, err);
    throw err;
  }
}
