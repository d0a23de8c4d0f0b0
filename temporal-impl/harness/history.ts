import type { Client } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { workflowIdFor } from '../src/identity.ts';

export interface HistoryEventSummary {
  eventId: number;
  /** As the Temporal UI names it, e.g. "ActivityTaskCompleted". */
  eventType: string;
  time: string;
  activityType?: string;
  activityId?: string;
  attempt?: number;
  workerIdentity?: string;
  /** On an activity's completion, failure or timeout: the start event of the attempt it closes. */
  startedEventId?: number;
}

/** A history as proto JSON (the format `temporal workflow show --output json` writes, and the replayer reads). */
export interface HistoryJson {
  events: Record<string, unknown>[];
}

export async function fetchHistoryJson(client: Client, workflowId: string, runId?: string): Promise<HistoryJson> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return JSON.parse(historyToJSON(history)) as HistoryJson;
}

const pascal = (constant: string) =>
  constant
    .replace(/^EVENT_TYPE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/**
 * The durable record, flattened: one line per event, with the activity named on every
 * activity event (the server writes the type and id only on the Scheduled event) and the worker
 * identity that started or completed it.
 */
export function summarizeHistory(history: HistoryJson): HistoryEventSummary[] {
  const scheduled = new Map<string, { activityType: string; activityId: string }>();
  return history.events.map((event) => {
    const attributesKey = Object.keys(event).find((k) => k.endsWith('EventAttributes'));
    const attrs = (attributesKey ? event[attributesKey] : {}) as Record<string, unknown>;
    const eventId = Number(event.eventId);
    const summary: HistoryEventSummary = {
      eventId,
      eventType: pascal(String(event.eventType)),
      time: String(event.eventTime),
    };
    if (summary.eventType === 'ActivityTaskScheduled') {
      const activity = {
        activityType: String((attrs.activityType as { name?: string } | undefined)?.name),
        activityId: String(attrs.activityId),
      };
      scheduled.set(String(eventId), activity);
      Object.assign(summary, activity);
    } else if (attrs.scheduledEventId !== undefined && scheduled.has(String(attrs.scheduledEventId))) {
      Object.assign(summary, scheduled.get(String(attrs.scheduledEventId)));
    }
    if (typeof attrs.attempt === 'number') summary.attempt = attrs.attempt;
    if (attrs.startedEventId !== undefined && Number(attrs.startedEventId) > 0)
      summary.startedEventId = Number(attrs.startedEventId);
    if (typeof attrs.identity === 'string' && attrs.identity) summary.workerIdentity = attrs.identity;
    return summary;
  });
}

export async function readHistory(o: { client: Client; runId: string }): Promise<HistoryEventSummary[]> {
  return summarizeHistory(await fetchHistoryJson(o.client, workflowIdFor(o.runId)));
}
