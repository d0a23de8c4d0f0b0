import { workerNameOf, type DurableMark, type DurableRecord, type InFlightTask } from '@vendor-review/conformance';
import type { HistoryEventSummary } from './history.ts';

const VERBS: Record<string, string> = {
  ActivityTaskScheduled: 'scheduled',
  ActivityTaskStarted: 'started',
  ActivityTaskCompleted: 'done',
  ActivityTaskFailed: 'failed',
  ActivityTaskTimedOut: 'timed out',
  ActivityTaskCancelRequested: 'cancel asked',
  ActivityTaskCanceled: 'cancelled',
};

/** Events that only move the machinery (workflow tasks, scheduling, memo updates), not the review. */
const BOOKKEEPING =
  /^WorkflowTask|Scheduled$|Started$|^WorkflowPropertiesModified$|^UpsertWorkflowSearchAttributes$|^MarkerRecorded$/;

/** The workflow names activities by step ("FETCH:soc2:1", "DELIVER:outbox"); the step is the head. */
export function stepOf(activityId: string | undefined, activityType: string | undefined): string | null {
  const head = activityId?.split(/[:#]/)[0];
  if (head && /^[A-Z_]+$/.test(head)) return head;
  return activityType ?? null;
}

function describe(e: HistoryEventSummary): { short: string; long: string } {
  const verb = VERBS[e.eventType];
  const label = e.activityId?.split(/[:#]/)[0] || e.activityType;
  // A completed activity is what "last durable" usually names: the bare step says it.
  if (verb && label) {
    const who = e.activityId && e.activityId !== label ? e.activityId : label;
    return { short: verb === 'done' ? label : `${label} ${verb}`, long: `activity ${who} ${verb}` };
  }
  const words = e.eventType.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const short = words
    .replace(/^workflow execution /, 'workflow ')
    .replace(/^workflow task /, 'wf task ')
    .replace(/ task /, ' ');
  return { short, long: words };
}

/**
 * A workflow history as the harness reads it: one mark per event, named by the step its activity
 * runs, with the worker that started or completed it (identities are `<worker name>/<pid>`); and
 * as claims, each activity's started event (the attempt that closed it and the worker it went to)
 * and each workflow task's (workflowTaskClaims).
 */
export function toDurableRecord(events: HistoryEventSummary[]): DurableRecord {
  const marks = events.map((e): DurableMark => {
    const d = describe(e);
    const at = Date.parse(e.time);
    return {
      id: String(e.eventId),
      kind: 'event',
      at: Number.isFinite(at) ? at : null,
      step: stepOf(e.activityId, e.activityType),
      short: `#${e.eventId} ${d.short}`,
      long: `history event ${e.eventId}: ${d.long}${e.attempt && e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`,
      writer: workerNameOf(e.workerIdentity),
      // A close names the start of the attempt it closes: who the server handed the attempt to.
      ...(e.startedEventId ? { parentId: String(e.startedEventId) } : {}),
      order: e.eventId,
      bookkeeping: BOOKKEEPING.test(e.eventType) && e.eventType !== 'WorkflowExecutionStarted',
    };
  });
  marks.sort((a, b) => a.order - b.order);
  const claims = events
    .filter((e) => e.eventType === 'ActivityTaskStarted')
    .map((e): InFlightTask => ({
      step: stepOf(e.activityId, e.activityType),
      attempt: e.attempt ?? 1,
      worker: workerNameOf(e.workerIdentity),
      fence: 'runtime',
    }));
  return { runtime: 'temporal', kind: 'history', marks, claims: [...claims, ...workflowTaskClaims(events)] };
}

const WORKFLOW_TASK_CLOSED = /^WorkflowTask(Completed|Failed|TimedOut)$/;
const WORKFLOW_TASK_ENDED_BY_SERVER = /^WorkflowTask(Failed|TimedOut)$/;

/**
 * Each hand-out of a workflow task, as its started event names it, with the worker it went to.
 * Its token counts the hand-outs the server had ended before it (timed out or failed) plus one: a
 * completed task passes nothing on, an ended one makes every later hand-out newer. Temporal's own
 * attempt number does not say this: it starts over at 1 when a timed-out task moves off a sticky
 * queue. `open`: only the last hand-out, and only while nothing has closed it (the task a worker
 * holds now).
 */
export function workflowTaskClaims(events: readonly HistoryEventSummary[], o: { open?: boolean } = {}): InFlightTask[] {
  const claims: InFlightTask[] = [];
  let ended = 0;
  let open = false;
  for (const e of events) {
    if (WORKFLOW_TASK_ENDED_BY_SERVER.test(e.eventType)) ended++;
    if (WORKFLOW_TASK_CLOSED.test(e.eventType)) open = false;
    if (e.eventType !== 'WorkflowTaskStarted') continue;
    open = true;
    claims.push({ step: null, attempt: ended + 1, worker: workerNameOf(e.workerIdentity), fence: 'runtime' });
  }
  return o.open ? (open ? claims.slice(-1) : []) : claims;
}
