/**
 * What the harness (and a person at a terminal) does with a run: start it, approve it, look at
 * it, wait for it. Everything is keyed by the business run id; the workflow id is derived from it.
 */
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  DEFAULT_GRANULARITY,
  newRunId,
  type Granularity,
  type ReviewRequestInput,
  type ReviewState,
  type RunStatus,
  type RunView,
  type Variant,
} from '@vendor-review/pipeline';
import { workflowIdFor } from './identity.ts';
import { WORKFLOW_TASK_TIMEOUT } from './activity-options.ts';
import { approveSignal, reviewQuery, STATUS_MEMO_KEY, type RunTimeouts } from './definitions.ts';
import type { vendorReview } from './workflows.ts';

/** The harness's view of a run, with Temporal's own ids next to the business run id. */
export interface RunDetails extends RunView {
  runId: string;
  workflowId: string;
  /** Temporal's id of the execution; null when the server does not know the workflow. */
  runtimeRunId: string | null;
}

/** The server does not know this run: never started, deleted, or kept only in a dev server's memory that was lost. */
export class RunNotFoundError extends Error {
  override readonly name = 'RunNotFoundError';
  constructor(
    readonly runId: string,
    readonly workflowId: string,
    namespace: string,
  ) {
    super(notFoundReason(runId, workflowId, namespace));
  }
}

function notFoundReason(runId: string, workflowId: string, namespace: string): string {
  return (
    `run ${runId} is gone: the Temporal server has no workflow ${workflowId} in namespace "${namespace}". ` +
    `If the server was restarted, its history was lost with it: a dev server started without --db-filename keeps workflows only in memory. ` +
    `Start the dev server with --db-filename <file> (or use a server with real persistence) to keep runs across restarts.`
  );
}

function vendorSlug(request: ReviewRequestInput): string {
  const name = (request as { vendor?: { name?: unknown } }).vendor?.name;
  const slug = String(name ?? 'vendor')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 24);
  return slug || 'vendor';
}

/** The workflow each granularity runs (workflows.ts): the same input, fewer or more activities. */
export const WORKFLOW_TYPES: Record<Granularity, string> = {
  fine: 'vendorReview',
  'per-requirement': 'vendorReviewPerRequirement',
  coarse: 'vendorReviewCoarse',
};

export async function startRun(o: {
  client: Client;
  taskQueue: string;
  request: ReviewRequestInput;
  variant: Variant;
  runId?: string;
  /** The run's own timing (part of its input); absent: the workflow's defaults. */
  timeouts?: RunTimeouts;
  /** Where the durable boundaries are; default `fine`: today's workflow, an activity per step. */
  granularity?: Granularity;
}): Promise<{ runId: string; workflowId: string; runtimeRunId: string }> {
  const runId = o.runId ?? newRunId(vendorSlug(o.request));
  const workflowId = workflowIdFor(runId);
  const granularity = o.granularity ?? DEFAULT_GRANULARITY;
  const handle = await o.client.workflow.start<typeof vendorReview>(WORKFLOW_TYPES[granularity], {
    taskQueue: o.taskQueue,
    workflowId,
    args: [{ runId, request: o.request, variant: o.variant, ...(o.timeouts ? { timeouts: o.timeouts } : {}) }],
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
    memo: { runId, variant: o.variant, granularity, [STATUS_MEMO_KEY]: 'running' },
  });
  return { runId, workflowId, runtimeRunId: handle.firstExecutionRunId };
}

/** Send the human's decision. A signal is stored by the server, so this works while no worker is alive. */
export async function approveRun(o: {
  client: Client;
  runId: string;
  approved: boolean;
  by: string;
  note?: string;
}): Promise<void> {
  const workflowId = workflowIdFor(o.runId);
  try {
    await o.client.workflow
      .getHandle(workflowId)
      .signal(approveSignal, { approved: o.approved, by: o.by, ...(o.note ? { note: o.note } : {}) });
  } catch (err) {
    if (err instanceof WorkflowNotFoundError)
      throw new RunNotFoundError(o.runId, workflowId, o.client.options.namespace);
    throw err;
  }
}

/** How long getRun waits for a worker to answer the state query before reporting state: null. */
const QUERY_DEADLINE_MS = 2_000;

/**
 * Where the run is and its state. The status of a running workflow comes from its memo (kept by
 * the workflow, readable with no worker alive); the state comes from a query, which needs a live
 * worker: without one, state is null after a short wait. `queryState: false` skips the query;
 * `statusOnly` reads nothing but the one describe call (cheap enough to poll several times a second).
 */
export async function getRun(o: {
  client: Client;
  runId: string;
  queryState?: boolean;
  statusOnly?: boolean;
}): Promise<RunDetails> {
  const workflowId = workflowIdFor(o.runId);
  const handle = o.client.workflow.getHandle(workflowId);
  let description;
  try {
    description = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      return {
        runId: o.runId,
        workflowId,
        runtimeRunId: null,
        status: 'not-found',
        state: null,
        reason: notFoundReason(o.runId, workflowId, o.client.options.namespace),
      };
    }
    throw err;
  }
  const base = { runId: o.runId, workflowId, runtimeRunId: description.runId };
  switch (description.status.name) {
    case 'RUNNING': {
      const memoStatus = description.memo?.[STATUS_MEMO_KEY];
      const status: RunStatus = memoStatus === 'awaiting-approval' ? 'awaiting-approval' : 'running';
      const view =
        o.queryState === false || o.statusOnly
          ? null
          : await o.client
              .withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(reviewQuery))
              .catch(() => null);
      return { ...base, status: view?.status ?? status, state: view?.state ?? null };
    }
    case 'COMPLETED':
      return { ...base, status: 'completed', state: o.statusOnly ? null : ((await handle.result()) as ReviewState) };
    default:
      return { ...base, status: 'failed', state: o.statusOnly ? null : await failedState(handle) };
  }
}

/** Where the run is, from one describe call: what a harness polls while a worker runs. */
export function runStatus(o: { client: Client; runId: string }): Promise<RunDetails> {
  return getRun({ ...o, statusOnly: true });
}

/** A dead-lettered run ends failed with its last state in the failure's details. */
async function failedState(handle: { result(): Promise<unknown> }): Promise<ReviewState | null> {
  try {
    await handle.result();
    return null;
  } catch (err) {
    if (
      err instanceof WorkflowFailedError &&
      err.cause instanceof ApplicationFailure &&
      err.cause.type === 'DeadLettered'
    ) {
      return (err.cause.details?.[0] as ReviewState | undefined) ?? null;
    }
    return null;
  }
}

/** Poll until the run reaches one of `until` (default: completed or failed) or the timeout passes. */
export async function waitForRun(o: {
  client: Client;
  runId: string;
  until?: RunStatus[];
  timeoutMs?: number;
  pollMs?: number;
  queryState?: boolean;
}): Promise<RunDetails> {
  const until = o.until ?? ['completed', 'failed'];
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  for (;;) {
    const view = await getRun(o);
    if (until.includes(view.status)) return view;
    if (view.status === 'not-found') throw new RunNotFoundError(o.runId, view.workflowId, o.client.options.namespace);
    if (Date.now() > deadline)
      throw new Error(
        `run ${o.runId} is still ${view.status} after ${o.timeoutMs ?? 60_000}ms (waiting for ${until.join(' or ')})`,
      );
    await new Promise((r) => setTimeout(r, o.pollMs ?? 200));
  }
}
