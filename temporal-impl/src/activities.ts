/**
 * The activities: one thin wrapper per step. Each builds the StepContext from the activity's own
 * info, heartbeats while the step runs, and calls the very same shared step the LangGraph node
 * calls (FETCH: `fetchPage` here and there). No domain logic lives here.
 */
import { Context } from '@temporalio/activity';
import {
  applyApproval as applyApprovalStep,
  askApprover,
  composeDelivery,
  deadLetter,
  deliver as deliverStep,
  discover as discoverStep,
  draft as draftStep,
  draftAndDeliver,
  extract as extractStep,
  fetchPage as fetchPageStep,
  PermanentError,
  researchAll,
  researchRequirement,
  saveProgress as saveProgressStep,
  selectPage as selectPageStep,
  selectRequirement as selectRequirementStep,
  validate as validateStep,
  verify as verifyStep,
  type FetchTarget,
  type Ports,
  type ReviewState,
  type StageOptions,
  type StateUpdate,
  type StepContext,
  type StepName,
  stepKindOf,
  type Variant,
} from '@vendor-review/pipeline';
import { stageStepContext, stepContext } from './step-context.ts';
import { failStep } from './own-errors.ts';
import { withHeartbeats } from './heartbeat.ts';
import type { DeadLetterEntry, Store } from './postgres-store.ts';
import type { ApprovalDecision } from './definitions.ts';

export interface StepArgs {
  state: ReviewState;
  variant: Variant;
}

export interface ActivityDeps {
  ports: Ports;
  /** Worker label for the ledger ("A", "B"…). */
  worker: string;
  /** Outbox and dead letters (hardened). Without it those activities fail with a message saying so. */
  store?: Store;
}

const DELIVERY_POLL_MS = 200;

export function createActivities(deps: ActivityDeps) {
  const { ports, worker } = deps;

  const run = <T>(step: StepName, args: StepArgs, body: (ctx: StepContext) => Promise<T>): Promise<T> =>
    withHeartbeats(async () => {
      const ctx = stepContext(step, args.variant, args.state.runId, worker);
      try {
        return await body(ctx);
      } catch (err) {
        throw await failStep(err, { variant: args.variant, kind: stepKindOf(step), store: deps.store });
      }
    });

  /**
   * A stage (several shared steps in one activity, for the coarser granularities): each step gets
   * its own context and key; a failure says which step inside the stage it came from.
   */
  const stage = (
    name: string,
    a: StepArgs,
    body: (state: ReviewState, ports: Ports, o: StageOptions) => Promise<StateUpdate>,
  ): Promise<StateUpdate> =>
    withHeartbeats(async () => {
      let inner: StepName | null = null;
      try {
        return await body(a.state, ports, {
          contextFor: (step, keyParts) => stageStepContext(step, a.variant, a.state.runId, worker, keyParts),
          onStep: (step) => (inner = step),
        });
      } catch (err) {
        if (err instanceof Error && inner) err.message = `${inner} (in ${name}): ${err.message}`;
        throw await failStep(err, { variant: a.variant, kind: stepKindOf(name), store: deps.store });
      }
    });

  const store = (): Store => {
    if (!deps.store)
      throw new PermanentError(
        'this worker has no DATABASE_URL: the hardened outbox and dead letter need PostgreSQL',
        'no-database',
      );
    return deps.store;
  };

  return {
    validate: (a: StepArgs): Promise<StateUpdate> => run('VALIDATE', a, (ctx) => validateStep(a.state, ports, ctx)),
    discover: (a: StepArgs): Promise<StateUpdate> => run('DISCOVER', a, (ctx) => discoverStep(a.state, ports, ctx)),
    selectRequirement: (a: StepArgs): Promise<StateUpdate> =>
      run('SELECT_REQUIREMENT', a, (ctx) => selectRequirementStep(a.state, ports, ctx)),
    selectPage: (a: StepArgs): Promise<StateUpdate> =>
      run('SELECT_PAGE', a, (ctx) => selectPageStep(a.state, ports, ctx)),
    fetchPage: (a: StepArgs & { target: FetchTarget }): Promise<StateUpdate> =>
      run('FETCH', a, (ctx) => fetchPageStep(a.state, ports, ctx, a.target)),
    extract: (a: StepArgs): Promise<StateUpdate> => run('EXTRACT', a, (ctx) => extractStep(a.state, ports, ctx)),
    verify: (a: StepArgs): Promise<StateUpdate> => run('VERIFY', a, (ctx) => verifyStep(a.state, ports, ctx)),
    saveProgress: (a: StepArgs): Promise<StateUpdate> =>
      run('SAVE_PROGRESS', a, (ctx) => saveProgressStep(a.state, ports, ctx)),
    draft: (a: StepArgs): Promise<StateUpdate> => run('DRAFT', a, (ctx) => draftStep(a.state, ports, ctx)),

    /** coarse: VALIDATE, DISCOVER and every requirement to its tracker note, one activity. */
    review: (a: StepArgs): Promise<StateUpdate> => stage('REVIEW', a, researchAll),
    /** per-requirement: the next requirement, from choosing it to its tracker note, one activity. */
    researchRequirement: (a: StepArgs): Promise<StateUpdate> => stage('REQUIREMENT', a, researchRequirement),
    /** coarse: DRAFT and DELIVER in one activity; the mail goes out straight from it (with its key in hardened). */
    send: (a: StepArgs): Promise<StateUpdate> => stage('SEND', a, draftAndDeliver),

    /** Tells the approver, and records the question as the activity's result: a resume replays the result, not the call. */
    requestApproval: (a: StepArgs) => run('AWAIT_APPROVAL', a, (ctx) => askApprover(a.state, ports, ctx)),
    applyApproval: (a: StepArgs & { decision: ApprovalDecision }): Promise<StateUpdate> =>
      run('AWAIT_APPROVAL', a, async () => applyApprovalStep(a.state, a.decision)),

    /** naive DELIVER: compose and send in the activity, no key. A crash after the send sends again. */
    deliver: (a: StepArgs): Promise<StateUpdate> => run('DELIVER', a, (ctx) => deliverStep(a.state, ports, ctx)),

    /** hardened DELIVER, part 1: write the mail into the outbox under this activity's key. */
    enqueueDelivery: (a: StepArgs): Promise<{ key: string }> =>
      run('DELIVER', a, async (ctx) => {
        const key = ctx.idempotencyKey;
        if (!key)
          throw new PermanentError('enqueueDelivery needs an idempotency key (hardened variant only)', 'no-key');
        await store().enqueueDelivery({
          key,
          run: { runId: ctx.run.runId, workflowId: ctx.run.runtimeId, runtimeRunId: ctx.run.runtimeRunId ?? '' },
          mail: composeDelivery(a.state),
          taskQueue: Context.current().info.taskQueue,
        });
        return { key };
      }),

    /** hardened DELIVER, part 2: send the row (or wait, heartbeating, until a drainer has), and report its receipt. */
    awaitDelivery: ({ key }: { key: string }): Promise<StateUpdate> =>
      withHeartbeats(async () => {
        const ctx = Context.current();
        try {
          for (;;) {
            const row = await store().delivery(key);
            if (!row) throw new PermanentError(`no outbox row for key ${key}`, 'outbox-row-missing');
            if (row.status === 'sent' && row.receipt) {
              return { delivery: { messageId: row.receipt.id, duplicate: row.receipt.duplicate, to: row.mail.to } };
            }
            if (row.status === 'dead')
              throw new PermanentError(
                `delivery gave up after ${row.attempts} send(s): ${row.lastError}`,
                'delivery-failed',
              );
            // Send it now rather than wait for the drainer's next poll (the drainer still sends what
            // this attempt leaves: a send that failed and waits out its backoff, a worker that died).
            const target = { ports, worker, taskQueue: ctx.info.taskQueue, runId: row.run.runId };
            if (await store().deliverRun(target)) continue;
            await ctx.sleep(DELIVERY_POLL_MS);
          }
        } catch (err) {
          throw await failStep(err, { variant: 'hardened', kind: 'delivery', store: deps.store });
        }
      }),

    /** DEAD_LETTER: persist what a person needs to decide, and fold it into state. */
    recordDeadLetter: async (entry: DeadLetterEntry): Promise<StateUpdate> => {
      await store().recordDeadLetter(entry);
      return deadLetter({ step: entry.step, error: entry.error, attempts: entry.attempts, input: entry.input });
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
