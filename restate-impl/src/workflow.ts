/**
 * The vendor review as a Restate workflow: control flow in the `run` handler, every step a
 * `ctx.run` around the shared domain step. The Restate server keeps the invocation's journal and
 * pushes the invocation to this service; each `ctx.run` result is recorded by the server before
 * the handler goes on. When the endpoint is lost the server invokes the handler again and replays
 * the journal: a step already recorded returns its result instead of running, the one in flight
 * runs again (so the handler must call steps in the same order: it does, the state only moves by
 * their results).
 *
 * - naive: as Restate's docs write it: `ctx.run` with Restate's default retries, no keys, the mail
 *   sent from its step, the approval a durable promise resolved by the `approve` handler.
 * - hardened: idempotency keys from the invocation's workflow and the step; the retry rule (domain
 *   retry-rule.ts) counting only the step's own errors, durably (restate_step_errors), with a
 *   dead letter at the cap; the mail through the shared outbox; a SIGTERM lets the steps in flight
 *   be recorded before the process leaves (worker-io's StepGate).
 */
import * as restate from '@restatedev/restate-sdk';
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
import { RESTATE_OUTBOX, RESTATE_STEP_ERRORS } from './store.ts';

export interface ReviewInput {
  runId: string;
  variant: Variant;
  request: ReviewRequestInput;
  /** Where the durable boundaries are (domain granularity.ts); fine when left out. */
  granularity?: Granularity;
}

/** A step, or a stage: several steps inside one `ctx.run` (the coarser granularities). */
type Boundary = StepName | 'REVIEW' | 'REQUIREMENT' | 'SEND';

/** The workflow's state key the harness reads for its phase, and the durable promise the approval resolves. */
export const PHASE_KEY = 'phase';
export const APPROVAL_PROMISE = 'approval';
export type Phase = 'running' | 'awaiting-approval' | 'completed' | 'failed';

/** The service's name: one `review` workflow, every run an invocation of it keyed by the run's id. */
export const REVIEW_SERVICE = 'review';

/** What a workflow's endpoint gives it: the world, its name, and the database of hardened's outbox and counts. */
export interface WorkflowDeps {
  ports: Ports;
  worker: string;
  pool: pg.Pool | null;
  /** What lets an endpoint asked to stop finish hardened runs' steps in flight first. */
  gate: StepGate | null;
  /** `pnpm lab worker`: a line as each step starts and ends (TRACE_STEPS). */
  trace?: StepTrace | null;
}

/** A step that gave up: terminal for Restate (not retried), with what the dead letter needs recorded beside the message. */
function gaveUp(step: string, attempts: number, cause: string, input: unknown): restate.TerminalError {
  return new restate.TerminalError(`${step} gave up after ${attempts} own error(s): ${cause}`, {
    metadata: { step, attempts: String(attempts), cause, input: JSON.stringify(input ?? null) },
  });
}

/** The service's name and the server's settings a team tunes per service; unset, `review` and the server's defaults. */
export interface WorkflowOptions {
  /** Another name for the service (one deployment of it beside others on the same server). */
  name?: string;
  /** How long the server waits before it pushes an invocation again after its endpoint was lost. */
  retryInitialIntervalMs?: number;
  /**
   * How long the server lets an attempt say nothing before it asks the endpoint to stop, and then
   * how long before it aborts the attempt and retries the invocation: the shorter timeouts a team
   * sets for a faster takeover of a silent endpoint (the server's defaults: a minute, then ten).
   */
  inactivityTimeoutMs?: number;
  abortTimeoutMs?: number;
}

/** The service options the server applies to this service, from WorkflowOptions; only those set. */
function serviceOptions(o: WorkflowOptions) {
  const options = {
    ...(o.retryInitialIntervalMs === undefined ? {} : { retryPolicy: { initialInterval: o.retryInitialIntervalMs } }),
    ...(o.inactivityTimeoutMs === undefined ? {} : { inactivityTimeout: o.inactivityTimeoutMs }),
    ...(o.abortTimeoutMs === undefined ? {} : { abortTimeout: o.abortTimeoutMs }),
  };
  return Object.keys(options).length === 0 ? {} : { options };
}

export function reviewWorkflow(deps: WorkflowDeps, options: WorkflowOptions = {}) {
  const name = options.name ?? REVIEW_SERVICE;
  return restate.workflow({
    name,
    ...serviceOptions(options),
    handlers: {
      run: async (ctx: restate.WorkflowContext, input: ReviewInput): Promise<ReviewState> => {
        const { runId, variant } = input;
        const { ports, worker, pool, trace } = deps;
        const hardened = variant === 'hardened';
        const gate = hardened ? deps.gate : null;
        if (hardened && !pool) throw new restate.TerminalError('the hardened variant needs DATABASE_URL');
        const workflowId = `${name}/${ctx.key}`;
        let state = initialState(runId, input.request as ReviewState['request']);
        const merge = (u: StateUpdate) => {
          state = applyUpdate(state, u);
        };
        const stepCtx = (step: StepName, stepKey: string): StepContext => ({
          run: { runId, runtime: 'restate', runtimeId: workflowId },
          step,
          attempt: 1,
          worker,
          ...(hardened ? { idempotencyKey: deriveIdempotencyKey(workflowId, stepKey) } : {}),
        });

        // The rule's retries live inside the step (worker-io's retryOwnErrors): a row per (run,
        // step) survives the endpoint and counts only the step's own errors.
        const withOwnRetries = <R>(name: Boundary, stepKey: string, call: () => Promise<R>, dlInput: unknown) =>
          retryOwnErrors({
            rule: retryRuleFor(stepKindOf(name)),
            call,
            count: (error) => RESTATE_STEP_ERRORS.record(pool!, { runKey: workflowId, stepKey, error }),
            gaveUp: (n, error) => gaveUp(name, n, error, dlInput ?? { current: state.current }),
          });

        /** One recorded step. `stepKey` names the logical operation (the journal entry, the key, the error count). */
        const recorded = <R>(name: Boundary, stepKey: string, body: () => Promise<R>, dlInput?: unknown) => {
          const run = trace ? () => trace.step(runId, stepKey, 1, body) : body;
          return hardened ? ctx.run(stepKey, () => withOwnRetries(name, stepKey, run, dlInput)) : ctx.run(stepKey, run);
        };
        /** Steps the gate lets start together (hardened: none once a SIGTERM came), awaited as one. */
        const gated = async <R>(steps: number, all: () => PromiseLike<R>): Promise<R> => {
          for (let i = 0; i < steps; i++) await gate?.enter();
          try {
            return await all();
          } finally {
            for (let i = 0; i < steps; i++) gate?.leave();
          }
        };
        const step = <R>(name: Boundary, stepKey: string, body: () => Promise<R>) =>
          gated(1, () => recorded(name, stepKey, body));
        // Inside a stage every step gets the context (and key) of its own, as in the fine workflow.
        const stage = { contextFor: (inner: StepName, parts: string[]) => stepCtx(inner, [inner, ...parts].join(':')) };
        const s = (
          name: StepName,
          stepKey: string,
          fn: (st: ReviewState, p: Ports, c: StepContext) => Promise<StateUpdate>,
        ) => step(name, stepKey, () => fn(state, ports, stepCtx(name, stepKey))).then(merge);
        const phase = (p: Phase) => ctx.set<Phase>(PHASE_KEY, p);

        try {
          phase('running');
          const granularity = input.granularity ?? 'fine';
          if (granularity === 'coarse') {
            merge(await step('REVIEW', 'REVIEW', () => researchAll(state, ports, stage)));
          } else {
            await s('VALIDATE', 'VALIDATE', validate);
            await s('DISCOVER', 'DISCOVER', discover);
            for (let n = 1; hasMoreRequirements(state); n++) {
              if (granularity === 'per-requirement') {
                merge(await step('REQUIREMENT', `REQUIREMENT#${n}`, () => researchRequirement(state, ports, stage)));
                continue;
              }
              await s('SELECT_REQUIREMENT', `SELECT_REQUIREMENT#${n}`, selectRequirement);
              const req = state.current!.requirementId;
              await s('SELECT_PAGE', `SELECT_PAGE:${req}`, selectPage);
              // Started together with the SDK's combinator; each page's result is recorded as it
              // comes, whatever happens to its siblings.
              const candidates = state.current!.candidates;
              const before = state;
              const pages = await gated(candidates.length, () =>
                restate.RestatePromise.all(
                  candidates.map((url, index) => {
                    const key = `FETCH:${req}:${index}`;
                    return recorded(
                      'FETCH',
                      key,
                      () => fetchPage(before, ports, stepCtx('FETCH', key), { url, index, of: candidates.length }),
                      { target: { url, index }, requirementId: req },
                    );
                  }),
                ),
              );
              pages.forEach(merge);
              await s('EXTRACT', `EXTRACT:${req}`, extract);
              await s('VERIFY', `VERIFY:${req}`, verify);
              await s('SAVE_PROGRESS', `SAVE_PROGRESS:${req}`, saveProgress);
            }
            await s('DRAFT', 'DRAFT', draft);
          }

          // The approver is told in a ctx.run: a replay gets its journaled result, and tells nobody again.
          const asked = stepCtx('AWAIT_APPROVAL', 'AWAIT_APPROVAL');
          await step('AWAIT_APPROVAL', 'AWAIT_APPROVAL', () => askApprover(state, ports, asked));
          phase('awaiting-approval');
          // Resolved by the `approve` handler, which the server holds until an endpoint is alive.
          const decision = await ctx.promise<Decision>(APPROVAL_PROMISE).get();
          phase('running');
          merge(applyApproval(state, decision));

          if (state.approval?.approved !== false) {
            // Coarse: draft and mail in one step, sent straight from it (no outbox boundary before the effect).
            if (granularity === 'coarse') merge(await step('SEND', 'SEND', () => draftAndDeliver(state, ports, stage)));
            else if (!hardened) await s('DELIVER', 'DELIVER', deliver);
            else {
              const c = stepCtx('DELIVER', 'DELIVER:outbox');
              const key = await step('DELIVER', 'DELIVER:outbox', async () => {
                await RESTATE_OUTBOX.enqueue(pool!, {
                  scope: runId,
                  key: c.idempotencyKey!,
                  run: c.run,
                  mail: composeDelivery(state),
                });
                return c.idempotencyKey!;
              });
              merge(
                await step('DELIVER', 'DELIVER:sent', () =>
                  RESTATE_OUTBOX.awaitSent({ pool: pool!, ports, worker, scope: runId, runId, key }),
                ),
              );
            }
          }
          phase('completed');
          return state;
        } catch (err) {
          const meta = err instanceof restate.TerminalError ? err.metadata : undefined;
          if (!meta?.step) throw err;
          merge(
            await ctx.run('DEAD_LETTER', async () =>
              deadLetter({
                step: meta.step!,
                error: meta.cause ?? (err as Error).message,
                attempts: Number(meta.attempts),
                input: JSON.parse(meta.input ?? 'null') as unknown,
              }),
            ),
          );
          phase('failed');
          return state;
        }
      },
      /** The person's decision. The first one wins: a promise already resolved keeps its value. */
      approve: restate.handlers.workflow.shared(async (ctx: restate.WorkflowSharedContext, d: Decision) => {
        if ((await ctx.promise<Decision>(APPROVAL_PROMISE).peek()) === undefined)
          await ctx.promise<Decision>(APPROVAL_PROMISE).resolve(d);
      }),
    },
  });
}
