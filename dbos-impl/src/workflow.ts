/**
 * The vendor review as a DBOS workflow: control flow in the workflow function, every step a
 * `DBOS.runStep` around the shared domain step. DBOS records each step's output in its system
 * database when the step returns; a worker that recovers the workflow runs the function again from
 * the top, and every step already recorded returns its output instead of running (so the
 * workflow must call steps in the same order: it does, the state only moves by their outputs).
 *
 * - naive: as DBOS's docs write it: steps with DBOS's defaults (no retries), no keys, the mail
 *   sent from its step, the approval a `DBOS.recv` on a topic.
 * - hardened: idempotency keys from the workflow id and the step; the retry rule (domain
 *   retry-rule.ts) counting only the step's own errors, durably (dbos_step_errors), with a dead
 *   letter at the cap; the mail through the shared outbox, sent by the run's own worker.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import {
  applyApproval,
  applyUpdate,
  askApprover,
  composeDelivery,
  deadLetter,
  deliver,
  deriveIdempotencyKey,
  discover,
  draft,
  draftAndDeliver,
  extract,
  fetchPage,
  hasMoreRequirements,
  initialState,
  PermanentError,
  researchAll,
  researchRequirement,
  retryRuleFor,
  saveProgress,
  selectPage,
  selectRequirement,
  stepKindOf,
  validate,
  verify,
  type Decision,
  type Granularity,
  type Ports,
  type ReviewRequestInput,
  type ReviewState,
  type StateUpdate,
  type StepContext,
  type StepName,
  type Variant,
} from '@vendor-review/pipeline';
import { retryOwnErrors, type StepGate, type StepTrace } from '@vendor-review/worker-io';
import type pg from 'pg';
import { DBOS_OUTBOX, DBOS_STEP_ERRORS } from './store.ts';

export interface ReviewInput {
  runId: string;
  variant: Variant;
  request: ReviewRequestInput;
  /** Where the durable boundaries are (domain granularity.ts); fine when left out. */
  granularity?: Granularity;
}

/** A step, or a stage: several steps inside one DBOS step (the coarser granularities). */
export type Boundary = StepName | 'REVIEW' | 'REQUIREMENT' | 'SEND';

/**
 * Runs the code of one step, given its name: called inside `DBOS.runStep`, so only for a step that
 * runs, never for one DBOS hands back from its journal. DBOS has no hook of its own before a step.
 */
export type StepWrapper = <R>(step: Boundary, body: () => Promise<R>) => Promise<R>;

/** The name DBOS records the workflow under, and a client enqueues it by. */
export const WORKFLOW_NAME = 'vendorReview';
/** The event the harness polls for the run's phase, and the topic the approval is sent on. */
export const STATUS_EVENT = 'status';
export const APPROVAL_TOPIC = 'approval';

/** One key per run's decision: the harness's send and a worker's forwarding of a kept one are the same message. */
export const approvalKey = (runId: string) => `approval-${runId}`;
export type PhaseEvent = 'running' | 'awaiting-approval' | 'completed' | 'failed';

/** What a workflow's worker gives it: the world, its name, and (hardened) the database of the outbox and counts. */
export interface WorkflowDeps {
  ports: Ports;
  worker: string;
  pool: pg.Pool | null;
  /** Hardened: what lets a worker asked to stop finish its steps in flight first (worker-io's step-gate.ts). */
  gate: StepGate | null;
  /** `pnpm lab worker`: a line as each step starts and ends (TRACE_STEPS). */
  trace?: StepTrace | null;
  /** Around the code of every step that runs (the worker's options); none in the worker a team deploys. */
  wrapStep?: StepWrapper | null;
}

class StepGaveUp extends Error {
  constructor(
    readonly step: string,
    readonly attempts: number,
    override readonly cause: unknown,
    readonly input: unknown,
  ) {
    super(`${step} gave up after ${attempts} own error(s): ${String(cause)}`);
  }
}

/** How long a run may wait for a person before recv returns nothing (DBOS's default is 60 s). */
const APPROVAL_WAIT_S = 7 * 24 * 3600;
export function makeVendorReview(deps: () => WorkflowDeps) {
  return async function vendorReview(input: ReviewInput): Promise<ReviewState> {
    const { runId, variant } = input;
    const { ports, worker, pool, gate, trace, wrapStep } = deps();
    const hardened = variant === 'hardened';
    if (hardened && !pool) throw new PermanentError('the hardened variant needs DATABASE_URL', 'no-database');
    const workflowId = DBOS.workflowID ?? runId;
    let state = initialState(runId, input.request as ReviewState['request']);
    const merge = (u: StateUpdate) => {
      state = applyUpdate(state, u);
    };
    const ctx = (step: StepName, stepKey: string): StepContext => ({
      run: { runId, runtime: 'dbos', runtimeId: workflowId },
      step,
      attempt: 1,
      worker,
      ...(hardened ? { idempotencyKey: deriveIdempotencyKey(workflowId, stepKey) } : {}),
    });

    const wrapped = <R>(name: Boundary, body: () => Promise<R>) => (wrapStep ? () => wrapStep(name, body) : body);
    /** One DBOS step. `stepKey` names the logical operation (DBOS's step name, the key, the error count). */
    const step = async <R>(name: Boundary, stepKey: string, body: () => Promise<R>, dlInput?: unknown): Promise<R> => {
      const run = wrapped(name, trace ? () => trace.step(runId, stepKey, 1, body) : body);
      if (!hardened) return DBOS.runStep(run, { name: stepKey });
      await gate?.enter();
      try {
        return await DBOS.runStep(() => withOwnRetries(name, stepKey, run, dlInput), { name: stepKey });
      } finally {
        gate?.leave();
      }
    };
    // Inside a stage every step gets the context (and key) of its own, as in the fine workflow.
    const stage = { contextFor: (inner: StepName, parts: string[]) => ctx(inner, [inner, ...parts].join(':')) };

    // The rule's retries live inside the step (worker-io's retryOwnErrors): DBOS's own step
    // retries count in-process only and forget with the worker; a row per (workflow, step)
    // survives it and counts only our errors.
    const withOwnRetries = <R>(name: Boundary, stepKey: string, call: () => Promise<R>, dlInput: unknown) =>
      retryOwnErrors({
        rule: retryRuleFor(stepKindOf(name)),
        call,
        count: (error) => DBOS_STEP_ERRORS.record(pool!, { runKey: workflowId, stepKey, error }),
        gaveUp: (n, error) => new StepGaveUp(name, n, error, dlInput ?? { current: state.current }),
      });
    const s = (
      name: StepName,
      stepKey: string,
      fn: (st: ReviewState, p: Ports, c: StepContext) => Promise<StateUpdate>,
    ) => step(name, stepKey, () => fn(state, ports, ctx(name, stepKey))).then(merge);

    const phase = (p: PhaseEvent) => DBOS.setEvent<PhaseEvent>(STATUS_EVENT, p);
    try {
      await phase('running');
      const granularity = input.granularity ?? 'fine';
      if (granularity === 'coarse') {
        merge(await step('REVIEW', 'REVIEW', () => researchAll(state, ports, stage)));
      } else {
        await s('VALIDATE', 'VALIDATE', validate);
        await s('DISCOVER', 'DISCOVER', discover);
        for (let n = 1; hasMoreRequirements(state); n++) {
          if (granularity === 'per-requirement') {
            // The whole round, from choosing the requirement to its tracker note, in one step.
            merge(await step('REQUIREMENT', `REQUIREMENT#${n}`, () => researchRequirement(state, ports, stage)));
            continue;
          }
          await s('SELECT_REQUIREMENT', `SELECT_REQUIREMENT#${n}`, selectRequirement);
          const req = state.current!.requirementId;
          await s('SELECT_PAGE', `SELECT_PAGE:${req}`, selectPage);
          // Started together, in a fixed order: DBOS numbers the steps as they are called, and a
          // finished sibling's output is recorded whatever happens to the others.
          const candidates = state.current!.candidates;
          const before = state;
          const pages = await Promise.all(
            candidates.map((url, index) => {
              const key = `FETCH:${req}:${index}`;
              return step(
                'FETCH',
                key,
                () => fetchPage(before, ports, ctx('FETCH', key), { url, index, of: candidates.length }),
                { target: { url, index }, requirementId: req },
              );
            }),
          );
          pages.forEach(merge);
          await s('EXTRACT', `EXTRACT:${req}`, extract);
          await s('VERIFY', `VERIFY:${req}`, verify);
          await s('SAVE_PROGRESS', `SAVE_PROGRESS:${req}`, saveProgress);
        }
        await s('DRAFT', 'DRAFT', draft);
      }

      // The approver is told in a step: a recovery gets its recorded output, and tells nobody again.
      const asked = ctx('AWAIT_APPROVAL', 'AWAIT_APPROVAL');
      await step('AWAIT_APPROVAL', 'AWAIT_APPROVAL', () => askApprover(state, ports, asked));
      await phase('awaiting-approval');
      // Durable: a message sent while no worker was alive waits in DBOS's notifications table.
      const decision = await DBOS.recv<Decision>(APPROVAL_TOPIC, { timeoutSeconds: APPROVAL_WAIT_S });
      if (!decision) throw new PermanentError(`no decision within ${APPROVAL_WAIT_S} s`, 'approval-timeout');
      await phase('running');
      merge(applyApproval(state, decision));

      if (state.approval?.approved !== false) {
        // Coarse: draft and mail in one step, sent straight from it (no outbox boundary before the effect).
        if (granularity === 'coarse') merge(await step('SEND', 'SEND', () => draftAndDeliver(state, ports, stage)));
        else if (!hardened) await s('DELIVER', 'DELIVER', deliver);
        else {
          const c = ctx('DELIVER', 'DELIVER:outbox');
          const key = await step('DELIVER', 'DELIVER:outbox', async () => {
            await DBOS_OUTBOX.enqueue(pool!, {
              scope: runId,
              key: c.idempotencyKey!,
              run: c.run,
              mail: composeDelivery(state),
            });
            return c.idempotencyKey!;
          });
          merge(
            await step('DELIVER', 'DELIVER:sent', () =>
              DBOS_OUTBOX.awaitSent({ pool: pool!, ports, worker, scope: runId, runId, key }),
            ),
          );
        }
      }
      await phase('completed');
      return state;
    } catch (err) {
      if (!(err instanceof StepGaveUp)) throw err;
      const gaveUp = err;
      merge(
        await DBOS.runStep(
          wrapped('DEAD_LETTER', async () =>
            deadLetter({ step: gaveUp.step, error: gaveUp.cause, attempts: gaveUp.attempts, input: gaveUp.input }),
          ),
          { name: 'DEAD_LETTER' },
        ),
      );
      await phase('failed');
      return state;
    }
  };
}
