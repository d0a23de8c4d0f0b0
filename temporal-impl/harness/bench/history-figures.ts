import type { Client } from '@temporalio/client';

/**
 * What one finished workflow stores, from the server: its history's event count and size, the
 * largest single payload in it (Temporal refuses a payload past 2 MB, well before the history's
 * 50 MB), and how many activity attempts the server gave up on for want of a heartbeat.
 */
export interface HistoryFigures {
  events: number;
  bytes: number;
  largestPayloadBytes: number;
  /** Bytes of every activity's arguments together: what passing state to activities costs. */
  activityInputBytes: number;
  heartbeatTimeouts: number;
  closedAt: number | null;
  startedAt: number;
}

interface PayloadsLike {
  payloads?: { data?: Uint8Array | null }[] | null;
}

const sizeOf = (p: PayloadsLike | null | undefined) =>
  (p?.payloads ?? []).reduce((n, x) => n + (x.data?.length ?? 0), 0);

export async function historyFigures(client: Client, workflowId: string): Promise<HistoryFigures> {
  const handle = client.workflow.getHandle(workflowId);
  const [description, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
  let largest = 0;
  let inputs = 0;
  let heartbeatTimeouts = 0;
  for (const e of history.events ?? []) {
    for (const attrs of Object.values(e)) {
      if (!attrs || typeof attrs !== 'object') continue;
      for (const key of ['input', 'result', 'details', 'heartbeatDetails'] as const) {
        const value = (attrs as Record<string, unknown>)[key] as PayloadsLike | undefined;
        if (value && typeof value === 'object' && 'payloads' in value) largest = Math.max(largest, sizeOf(value));
      }
    }
    if (e.activityTaskScheduledEventAttributes) inputs += sizeOf(e.activityTaskScheduledEventAttributes.input);
    // TimeoutType.HEARTBEAT is 4 in the API's enum.
    const timedOut = e.activityTaskTimedOutEventAttributes?.failure?.timeoutFailureInfo?.timeoutType;
    if (timedOut === 4) heartbeatTimeouts++;
  }
  return {
    events: description.historyLength,
    bytes: description.historySize ?? 0,
    largestPayloadBytes: largest,
    activityInputBytes: inputs,
    heartbeatTimeouts,
    startedAt: description.startTime.getTime(),
    closedAt: description.closeTime?.getTime() ?? null,
  };
}
