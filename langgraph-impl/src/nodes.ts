import { interrupt, isGraphBubbleUp, type LangGraphRunnableConfig } from '@langchain/langgraph';
import * as domain from '@vendor-review/pipeline';
import {
  STATE_SCHEMA_VERSION,
  UnsupportedStateVersionError,
  deriveIdempotencyKey,
  type DeadLetter,
  type FetchTarget,
  type Mail,
  type Ports,
  type ReviewState,
  type StageOptions,
  type StateUpdate,
  type StepContext,
  type StepName,
  givesUp,
  type Variant,
} from '@vendor-review/pipeline';
import { FencedOutError } from './lease.ts';
import { ruleOf, type OwnErrorCounter } from './retry.ts';

/** The shared steps, injectable so unit tests can run the graph without the world. */
export const DOMAIN_STEPS = {
  validate: domain.validate,
  discover: domain.discover,
  selectRequirement: domain.selectRequirement,
  selectPage: domain.selectPage,
  fetchPage: domain.fetchPage,
  extract: domain.extract,
  verify: domain.verify,
  saveProgress: domain.saveProgress,
  draft: domain.draft,
  approvalQuestion: domain.approvalQuestion,
  askApprover: domain.askApprover,
  applyApproval: domain.applyApproval,
  composeDelivery: domain.composeDelivery,
  deliver: domain.deliver,
  deadLetter: domain.deadLetter,
};
export type DomainSteps = typeof DOMAIN_STEPS;

export interface OutboxWriter {
  /** Records "send this mail" durably, once per key. */
  enqueue(entry: { runId: string; threadId: string; idempotencyKey: string; mail: Mail }): Promise<void>;
}

export interface NodeDeps {
  variant: Variant;
  ports: Ports;
  /** Label of this worker process for the ledger ("A", "B"…). */
  worker: string;
  steps?: DomainSteps;
  /** hardened: DELIVER writes here instead of sending. */
  outbox?: OutboxWriter;
  /** hardened: DEAD_LETTER reports the failure here (marks the run failed). */
  onDeadLetter?: (runId: string, failure: DeadLetter) => Promise<void>;
  /** hardened: counts a step's own errors where they outlive this worker (retry.ts); absent, LangGraph's attempt is the count. */
  ownErrors?: OwnErrorCounter;
}

export type FetchInput = ReviewState & { target: FetchTarget };
export type Node<I = ReviewState> = (state: I, config: LangGraphRunnableConfig) => Promise<StateUpdate>;

function threadOf(config: LangGraphRunnableConfig): string {
  const id = config.configurable?.thread_id;
  if (typeof id !== 'string' || !id) throw new Error('graph invoked without configurable.thread_id');
  return id;
}

/**
 * What a step learns about this execution. The attempt is LangGraph's own count for this task in
 * this process (executionInfo.nodeAttempt). The key, hardened only, is derived from the thread and
 * the logical operation, so a re-execution after a crash sends the same key and the receiver
 * collapses the duplicate.
 */
export function stepContext(
  deps: NodeDeps,
  step: StepName,
  state: ReviewState,
  config: LangGraphRunnableConfig,
  keyParts: string[] = [],
): StepContext {
  const threadId = threadOf(config);
  return {
    run: { runId: state.runId, runtime: 'langgraph', runtimeId: threadId },
    step,
    attempt: config.executionInfo?.nodeAttempt ?? 1,
    ...(deps.variant === 'hardened' ? { idempotencyKey: deriveIdempotencyKey(threadId, step, ...keyParts) } : {}),
    worker: deps.worker,
  };
}

/** Never run a step on state this code does not understand: a half-read state fails three nodes later. */
export function assertCurrentVersion(state: ReviewState): void {
  if (state.schemaVersion !== STATE_SCHEMA_VERSION) throw new UnsupportedStateVersionError(state.schemaVersion);
}

/**
 * One thin node: build the context, call the shared step. In hardened, an error that will not be
 * retried any more (permanent, unexpected, or transient at the cap) becomes the dead-letter record
 * in state instead of an exception, and the edges route to DEAD_LETTER. A transient error below
 * the cap is rethrown for LangGraph's RetryPolicy to retry. Naive lets everything propagate.
 */
function wrap<I extends ReviewState>(
  deps: NodeDeps,
  step: StepName,
  run: (state: I, ctx: StepContext) => Promise<StateUpdate>,
  keyParts: (state: I) => string[] = () => [],
  describeInput: (state: I) => unknown = (s) => ({ current: s.current, pending: s.pending }),
): Node<I> {
  return async (state, config) => {
    assertCurrentVersion(state);
    if (state.failure) return {}; // a sibling already failed; EXTRACT's edge takes the run to DEAD_LETTER
    const parts = keyParts(state);
    const ctx = stepContext(deps, step, state, config, parts);
    try {
      return await run(state, ctx);
    } catch (err) {
      return deadLetterOrRethrow(deps, err, config, {
        runId: state.runId,
        step,
        stepKey: [step, ...parts].join(':'),
        input: describeInput(state),
      });
    }
  };
}

/**
 * What a node does with an error: naive lets it propagate; hardened rethrows what LangGraph must
 * see (an interrupt, a lost lease) and, by the one retry rule, a transient error below the cap of
 * the step's own errors, and turns the rest into the dead-letter record in state.
 *
 * The count is the step's own errors across every worker that ran it (deps.ownErrors, durable),
 * never below LangGraph's in-process attempt (each of those ended in an own error too), so the
 * wrapper gives up no later than LangGraph's loop would. A graph aborted under the node (its lease
 * lost: another worker owns the run now) is a lost machine, not an error of the step: not counted.
 */
export async function deadLetterOrRethrow(
  deps: NodeDeps,
  err: unknown,
  config: LangGraphRunnableConfig,
  at: { runId: string; step: string; stepKey: string; input: unknown },
): Promise<StateUpdate> {
  if (deps.variant === 'naive' || isGraphBubbleUp(err) || err instanceof FencedOutError) throw err;
  if (config.signal?.aborted) throw err;
  const inProcess = config.executionInfo?.nodeAttempt ?? 1;
  const counted = deps.ownErrors
    ? await deps.ownErrors({ runId: at.runId, stepKey: at.stepKey, error: describe(err) }).catch(() => inProcess) // the store unreachable: this worker's own count, the pre-rule behaviour
    : inProcess;
  const ownErrors = Math.max(counted, inProcess);
  if (!givesUp(ruleOf(at.step), err, ownErrors)) throw err;
  const steps = deps.steps ?? DOMAIN_STEPS;
  return steps.deadLetter({ step: at.step, error: err, attempts: ownErrors, input: at.input });
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

export function createNodes(deps: NodeDeps) {
  const steps = deps.steps ?? DOMAIN_STEPS;
  const { ports } = deps;
  const req = (s: ReviewState) => (s.current ? [s.current.requirementId] : []);

  return {
    VALIDATE: wrap(
      deps,
      'VALIDATE',
      (s, ctx) => steps.validate(s, ports, ctx),
      () => [],
      (s) => ({ request: s.request }),
    ),
    DISCOVER: wrap(deps, 'DISCOVER', (s, ctx) => steps.discover(s, ports, ctx)),
    SELECT_REQUIREMENT: wrap(deps, 'SELECT_REQUIREMENT', (s, ctx) => steps.selectRequirement(s, ports, ctx), req),
    SELECT_PAGE: wrap(deps, 'SELECT_PAGE', (s, ctx) => steps.selectPage(s, ports, ctx), req),
    FETCH: wrap<FetchInput>(
      deps,
      'FETCH',
      (s, ctx) => steps.fetchPage(s, ports, ctx, s.target),
      (s) => [...req(s), s.target.url],
      (s) => ({ current: s.current, target: s.target }),
    ),
    EXTRACT: wrap(deps, 'EXTRACT', (s, ctx) => steps.extract(s, ports, ctx), req),
    VERIFY: wrap(deps, 'VERIFY', (s, ctx) => steps.verify(s, ports, ctx), req),
    SAVE_PROGRESS: wrap(deps, 'SAVE_PROGRESS', (s, ctx) => steps.saveProgress(s, ports, ctx), req),
    DRAFT: wrap(deps, 'DRAFT', (s, ctx) => steps.draft(s, ports, ctx)),

    /**
     * interrupt() stores the question in the checkpoint and stops the run; the worker resumes it
     * with Command({ resume: decision }), and LangGraph runs the node again from its first line.
     * naive tells the approver here, before interrupt(), as a node is usually written: the resume
     * tells them again, crash or no crash. hardened tells them in ASK_APPROVAL, the node before
     * (LangGraph's advice: side effects before an interrupt in a node of their own), and this node
     * has no effect to repeat.
     */
    AWAIT_APPROVAL: (async (state, config) => {
      assertCurrentVersion(state);
      if (state.failure) return {};
      const question =
        deps.variant === 'naive'
          ? await steps.askApprover(state, ports, stepContext(deps, 'AWAIT_APPROVAL', state, config))
          : steps.approvalQuestion(state);
      const decision = interrupt(question) as { approved: boolean; by: string; note?: string };
      return steps.applyApproval(state, decision);
    }) as Node,

    /** hardened: the approver told in a node of its own, under its key, so the world keeps one request even if it runs again. */
    ASK_APPROVAL: wrap(deps, 'ASK_APPROVAL', async (s, ctx) => {
      await steps.askApprover(s, ports, ctx);
      return {};
    }),

    DELIVER: wrap(deps, 'DELIVER', async (s, ctx) => {
      if (deps.variant === 'naive') return steps.deliver(s, ports, ctx);
      if (!deps.outbox || !ctx.idempotencyKey)
        throw new Error('hardened DELIVER needs an outbox and an idempotency key');
      // The outbox row is the source of truth for the mail; the drainer sends it and records the receipt there.
      await deps.outbox.enqueue({
        runId: s.runId,
        threadId: ctx.run.runtimeId,
        idempotencyKey: ctx.idempotencyKey,
        mail: steps.composeDelivery(s),
      });
      return {};
    }),

    DEAD_LETTER: (async (state) => {
      if (state.failure) await deps.onDeadLetter?.(state.runId, state.failure);
      return {};
    }) as Node,
  };
}

type Stage = (state: ReviewState, ports: Ports, o: StageOptions) => Promise<StateUpdate>;

/**
 * A node that runs a domain stage (several shared steps, one checkpoint): each step inside gets
 * the context and the key it gets as a node of its own in the fine graph, so the coarser graphs
 * differ from it in where the checkpoints are, and in nothing else. A failure names the step
 * inside the stage that failed.
 */
function stageNode(deps: NodeDeps, name: string, stage: Stage): Node {
  return async (state, config) => {
    assertCurrentVersion(state);
    if (state.failure) return {};
    let inner: StepName | null = null;
    try {
      return await stage(state, deps.ports, {
        contextFor: (step, keyParts) => stepContext(deps, step, state, config, keyParts),
        onStep: (step) => (inner = step),
      });
    } catch (err) {
      return deadLetterOrRethrow(deps, err, config, {
        runId: state.runId,
        step: inner ? `${inner} (in ${name})` : name,
        // One stage node per round: the requirements still pending tell the rounds apart.
        stepKey: `${name}#${state.pending.length}`,
        input: { stage: name, current: state.current, pending: state.pending },
      });
    }
  };
}

/** The stages as nodes: REVIEW (coarse), REQUIREMENT (per-requirement), SEND (coarse). */
export function createStageNodes(deps: NodeDeps) {
  return {
    REVIEW: stageNode(deps, 'REVIEW', domain.researchAll),
    REQUIREMENT: stageNode(deps, 'REQUIREMENT', domain.researchRequirement),
    SEND: stageNode(deps, 'SEND', domain.draftAndDeliver),
  };
}
