import { entrypoint, getConfig, GraphDrained, interrupt, task, type BaseCheckpointSaver } from '@langchain/langgraph';
import {
  STATE_SCHEMA_VERSION,
  UnsupportedStateVersionError,
  applyUpdate,
  hasMoreRequirements,
  type Decision,
  type ReviewState,
  type StateUpdate,
  type StepName,
} from '@vendor-review/pipeline';
import { createNodes, DOMAIN_STEPS, type NodeDeps } from '../nodes.ts';
import { nodeRetryPolicy } from '../retry.ts';
import type { TaskCommits } from './task-commits.ts';

/** The entrypoint's name: the one node LangGraph's checkpoints know this run by. */
export const ENTRYPOINT_NAME = 'review';

/**
 * What every task returns and the checkpoint keeps: the update, the step that made it and the
 * state schema it was written in. The step names a task's result in the durable record (LangGraph
 * stores a task's result under its id, not its name); the version lets hardened refuse a result
 * written by a state schema it does not read (a StateUpdate carries no version of its own).
 */
export interface TaskResult {
  step: StepName;
  schemaVersion: number;
  update: StateUpdate;
}

export function isTaskResult(value: unknown): value is TaskResult {
  const v = value as Partial<TaskResult> | null;
  return typeof v?.step === 'string' && typeof v.schemaVersion === 'number' && typeof v.update === 'object';
}

export interface EntrypointDeps extends NodeDeps {
  /** hardened: the entrypoint waits for each task's result to be committed before it acts on it (task-commits.ts). */
  commits?: TaskCommits;
  /**
   * hardened: the worker was asked to stop (drain.ts). LangGraph drains at the end of a superstep,
   * and the whole entrypoint is one (measured: a worker asked to stop ran on to the approval
   * interrupt), so the entrypoint stops itself at its next task boundary, every result so far committed.
   */
  drainAt?: AbortSignal;
}

/**
 * The review as LangGraph's Functional API writes it: one entrypoint, plain control flow, each
 * step a task. The tasks are the StateGraph's nodes (nodes.ts: the context, the key from the
 * thread and the step's identity, the dead letter by the retry rule), called inside a task
 * instead of a node, so both APIs run one definition of every step. Page fetches are tasks called
 * together and awaited together; the approver is told in a task, then the approval is interrupt()
 * in the entrypoint itself, resumed with Command({ resume }).
 *
 * How a resume works (measured in MEASUREMENTS.md, not assumed): LangGraph runs the entrypoint
 * again from its first line, and every task call whose result is in the checkpoint's pending
 * writes returns that result instead of running. A call is matched by its task id, derived from
 * the checkpoint, the task's name and its place in the order of calls (not from its arguments).
 */
export function buildReviewEntrypoint(deps: EntrypointDeps, checkpointer: BaseCheckpointSaver) {
  const nodes = createNodes(deps);
  const steps = deps.steps ?? DOMAIN_STEPS;
  const hardened = deps.variant === 'hardened';

  const taskOf = <I extends ReviewState>(step: StepName, node: (state: I, config: never) => Promise<StateUpdate>) =>
    task(
      // naive: as the docs write a task, no retry policy; hardened: the rule of the step's kind (retry.ts).
      hardened ? { name: step, retry: nodeRetryPolicy(step) } : step,
      async (state: I): Promise<TaskResult> => {
        const config = getConfig();
        const update = await node(state, config as never);
        deps.commits?.expect(config.executionInfo?.taskId);
        return { step, schemaVersion: STATE_SCHEMA_VERSION, update };
      },
    ) as unknown as (state: I) => Promise<TaskResult>; // the declared type nests the body's promise in another
  const t = {
    VALIDATE: taskOf('VALIDATE', nodes.VALIDATE),
    DISCOVER: taskOf('DISCOVER', nodes.DISCOVER),
    SELECT_REQUIREMENT: taskOf('SELECT_REQUIREMENT', nodes.SELECT_REQUIREMENT),
    SELECT_PAGE: taskOf('SELECT_PAGE', nodes.SELECT_PAGE),
    FETCH: taskOf('FETCH', nodes.FETCH),
    EXTRACT: taskOf('EXTRACT', nodes.EXTRACT),
    VERIFY: taskOf('VERIFY', nodes.VERIFY),
    SAVE_PROGRESS: taskOf('SAVE_PROGRESS', nodes.SAVE_PROGRESS),
    DRAFT: taskOf('DRAFT', nodes.DRAFT),
    ASK_APPROVAL: taskOf('ASK_APPROVAL', nodes.ASK_APPROVAL),
    DELIVER: taskOf('DELIVER', nodes.DELIVER),
  };

  /** A result from the checkpoint written in another state schema is refused, not applied (hardened). */
  const applied = async (state: ReviewState, pending: Promise<TaskResult>[]): Promise<ReviewState> => {
    const results = await Promise.all(pending);
    await deps.commits?.settled();
    for (const r of results)
      if (hardened && r.schemaVersion !== STATE_SCHEMA_VERSION) throw new UnsupportedStateVersionError(r.schemaVersion);
    // Bubbles up as LangGraph's own drain does: no error is recorded, and the resume replays from here.
    if (deps.drainAt?.aborted) throw new GraphDrained('SIGTERM, at a task boundary');
    return results.reduce((s, r) => applyUpdate(s, r.update), state);
  };

  return entrypoint({ name: ENTRYPOINT_NAME, checkpointer }, async (input: ReviewState): Promise<ReviewState> => {
    let state = input;
    const run = async (step: Exclude<keyof typeof t, 'FETCH'>) => {
      state = await applied(state, [t[step](state)]);
      return !state.failure;
    };
    /** Everything before the gate, in the plain runner's order; false at a dead letter. */
    const research = async (): Promise<boolean> => {
      if (!(await run('VALIDATE')) || !(await run('DISCOVER'))) return false;
      while (hasMoreRequirements(state)) {
        if (!(await run('SELECT_REQUIREMENT')) || !(await run('SELECT_PAGE'))) return false;
        const s = state;
        const urls = s.current?.candidates ?? [];
        // The pages of a requirement are fetched together: one task call each, awaited together.
        state = await applied(
          s,
          urls.map((url, index) => t.FETCH({ ...s, target: { url, index, of: urls.length } })),
        );
        if (state.failure) return false;
        if (!(await run('EXTRACT')) || !(await run('VERIFY')) || !(await run('SAVE_PROGRESS'))) return false;
      }
      return run('DRAFT');
    };
    // A dead letter ends the entrypoint with the failure in its returned state; the worker marks the
    // run failed once invoke() has returned, that is once the state is checkpointed. (Marking it from
    // inside, as the StateGraph's DEAD_LETTER node does, let a supervisor that saw "failed" stop the
    // worker before the checkpoint, leaving a failed run whose state holds no failure: measured by
    // the retry-lost-workers-exhausted hazard.)
    if (!(await research())) return state;
    // The approver is told in a task (LangGraph's advice for an effect before interrupt()): the
    // resume runs the entrypoint again from its first line, and the task hands back its recorded result.
    if (!(await run('ASK_APPROVAL'))) return state;
    const decision = interrupt(steps.approvalQuestion(state)) as Decision;
    state = applyUpdate(state, steps.applyApproval(state, decision));
    if (state.approval?.approved) await run('DELIVER');
    return state;
  });
}

export type ReviewEntrypoint = ReturnType<typeof buildReviewEntrypoint>;
