/**
 * The two runtimes keep different durable records (LangGraph: a chain of checkpoints plus pending
 * writes; Temporal: an event history). The evidence needs only a few common questions answered
 * ("what was the last durable thing before the crash", "what was written after it", "did the chain
 * fork"), so both are turned into one list of marks here, keeping each runtime's own vocabulary
 * in the labels.
 */
export interface DurableMark {
  /** Checkpoint id, `<checkpointId>/<taskId>/<channel>` for a pending write, or the history event id. */
  id: string;
  kind: 'checkpoint' | 'pending-write' | 'event';
  /** Epoch ms when the runtime recorded it, when the runtime says. */
  at: number | null;
  /** Pipeline step it belongs to (node or activity type), when known. */
  step: string | null;
  /** Short label for the table ("cp 7 FETCH", "#23 FETCH done"). */
  short: string;
  /** Sentence-ish label for the report and results.json. */
  long: string;
  /** LangGraph: parent checkpoint id, to detect a forked chain. */
  parentId?: string | null;
  /** Temporal: the worker identity that produced it, when the event carries one. */
  workerIdentity?: string | null;
  /** Ordering key within the record (checkpoint step, or event id). */
  order: number;
  /** Temporal events that only move the machinery (workflow tasks, scheduling, memo updates), not the review. */
  bookkeeping?: boolean;
}

export interface DurableRecord {
  runtime: 'langgraph' | 'temporal';
  marks: DurableMark[];
}

// ---------- LangGraph ----------

export interface LangGraphCheckpointIn {
  checkpointId: string;
  parentId: string | null | undefined;
  step: number;
  source: string;
  node?: string | null;
  createdAt?: string | number | null;
}
export interface LangGraphPendingWriteIn {
  checkpointId: string;
  taskId: string;
  channel: string;
  node?: string | null;
}

function toMs(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Date.parse(v);
  return Number.isFinite(n) ? n : null;
}

export function fromLangGraph(record: {
  checkpoints: LangGraphCheckpointIn[];
  pendingWrites: LangGraphPendingWriteIn[];
}): DurableRecord {
  const marks: DurableMark[] = [];
  for (const c of record.checkpoints) {
    const what = c.node ?? (c.source === 'input' ? 'input' : c.source);
    marks.push({
      id: c.checkpointId,
      kind: 'checkpoint',
      at: toMs(c.createdAt),
      step: c.node ?? null,
      short: `cp ${c.step} ${what}`,
      long: `checkpoint at step ${c.step} (${c.source}${c.node ? `, after ${c.node}` : ''})`,
      parentId: c.parentId ?? null,
      order: c.step,
    });
  }
  const stepOf = new Map(record.checkpoints.map((c) => [c.checkpointId, c.step]));
  for (const w of record.pendingWrites) {
    // Internal bookkeeping channels say nothing a reader of the table can use.
    marks.push({
      id: `${w.checkpointId}/${w.taskId}/${w.channel}`,
      kind: 'pending-write',
      at: null,
      step: w.node ?? null,
      short: `w ${w.node ?? w.channel}`,
      long: `pending write to ${w.channel}${w.node ? ` by ${w.node}` : ''}`,
      parentId: w.checkpointId,
      order: (stepOf.get(w.checkpointId) ?? 0) + 0.5,
    });
  }
  marks.sort((a, b) => a.order - b.order);
  return { runtime: 'langgraph', marks };
}

// ---------- Temporal ----------

export interface TemporalEventIn {
  eventId: number | string;
  eventType: string;
  time: string | number | null | undefined;
  activityType?: string | null;
  activityId?: string | null;
  attempt?: number | null;
  workerIdentity?: string | null;
}

/** "EVENT_TYPE_ACTIVITY_TASK_COMPLETED" or "ActivityTaskCompleted" → "ActivityTaskCompleted". */
export function eventName(eventType: string): string {
  if (!/^EVENT_TYPE_|_/.test(eventType)) return eventType;
  return eventType
    .replace(/^EVENT_TYPE_/, '')
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

const EVENT_VERBS: Record<string, string> = {
  ActivityTaskScheduled: 'scheduled',
  ActivityTaskStarted: 'started',
  ActivityTaskCompleted: 'done',
  ActivityTaskFailed: 'failed',
  ActivityTaskTimedOut: 'timed out',
  ActivityTaskCancelRequested: 'cancel asked',
  ActivityTaskCanceled: 'cancelled',
};

function describeEvent(name: string, activityType: string | null): { short: string; long: string } {
  const verb = EVENT_VERBS[name];
  // A completed activity is what "last durable" usually names: the bare step says it; other states say theirs.
  if (verb && activityType)
    return {
      short: verb === 'done' ? activityType : `${activityType} ${verb}`,
      long: `activity ${activityType} ${verb}`,
    };
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const compact = words
    .replace(/^workflow execution /, 'workflow ')
    .replace(/^workflow task /, 'wf task ')
    .replace(/ task /, ' ');
  return { short: compact, long: words };
}

/** The workflow names activities by step ("FETCH:soc2:1", "DELIVER:outbox"); fall back to the activity type. */
function activityLabel(activityId: string | null, activityType: string | null): string | null {
  return activityId?.split(/[:#]/)[0] || activityType;
}

function stepOfActivity(activityId: string | null, activityType: string | null): string | null {
  const head = activityId?.split(/[:#]/)[0];
  if (head && /^[A-Z_]+$/.test(head)) return head;
  return activityType;
}

export function fromTemporal(events: TemporalEventIn[]): DurableRecord {
  // Temporal names the activity type only on the scheduled event; carry it to its siblings by activity id.
  const typeById = new Map<string, string>();
  for (const e of events) if (e.activityId && e.activityType) typeById.set(e.activityId, e.activityType);
  const marks = events.map((e): DurableMark => {
    const name = eventName(e.eventType);
    const activityType = e.activityType ?? (e.activityId ? (typeById.get(e.activityId) ?? null) : null);
    const d = describeEvent(name, activityLabel(e.activityId ?? null, activityType));
    if (e.activityId && e.activityId !== activityLabel(e.activityId, activityType))
      d.long = d.long.replace(/^activity \S+/, `activity ${e.activityId}`);
    return {
      id: String(e.eventId),
      kind: 'event',
      at: toMs(e.time),
      step: stepOfActivity(e.activityId ?? null, activityType),
      short: `#${e.eventId} ${d.short}`,
      long: `history event ${e.eventId}: ${d.long}${e.attempt && e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`,
      workerIdentity: e.workerIdentity ?? null,
      order: Number(e.eventId),
      bookkeeping:
        /^WorkflowTask|Scheduled$|Started$|^WorkflowPropertiesModified$|^UpsertWorkflowSearchAttributes$|^MarkerRecorded$/.test(
          name,
        ) && name !== 'WorkflowExecutionStarted',
    };
  });
  marks.sort((a, b) => a.order - b.order);
  return { runtime: 'temporal', marks };
}

/** Two checkpoints with one parent: two writers continued the same thread from the same point. */
export function forkedCheckpoints(record: DurableRecord | null): string[] {
  if (!record || record.runtime !== 'langgraph') return [];
  const children = new Map<string, number>();
  for (const m of record.marks) {
    if (m.kind !== 'checkpoint' || !m.parentId) continue;
    children.set(m.parentId, (children.get(m.parentId) ?? 0) + 1);
  }
  return [...children].filter(([, n]) => n > 1).map(([id]) => id);
}
