import { callKey, type RecordedResponse, type SentCall, type Usage, type WorkerEvent } from './events.ts';

/** One outbound call of a run, as the harness pieces it together from a worker's events. */
export interface RecordedCall extends SentCall {
  key: string;
  /** Absent: the call never got an answer (it was in flight when the worker died, or it failed). */
  response?: RecordedResponse;
  usage: Usage | null;
  source?: 'recording' | 'live';
  bodyDiffers?: boolean;
  refused?: string;
  failed?: string;
  pid: number;
  sentAt: number;
  answeredAt?: number;
}

/** The calls in `events`, in the order they were sent, each with its answer when it had one. */
export function callsOf(events: readonly WorkerEvent[]): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const open = new Map<string, RecordedCall>();
  for (const ev of events) {
    if (ev.e === 'sent') {
      const { e: _e, t, ...sent } = ev;
      const call: RecordedCall = { ...sent, key: callKey(ev.method, ev.host, ev.path), usage: null, sentAt: t };
      calls.push(call);
      open.set(`${call.key}#${call.occurrence}`, call);
      continue;
    }
    if (ev.e !== 'answered' && ev.e !== 'refused' && ev.e !== 'failed') continue;
    const call = open.get(`${ev.call}#${ev.occurrence}`);
    if (!call) continue;
    if (ev.e === 'answered') {
      call.response = ev.response;
      call.usage = ev.usage;
      call.source = ev.source;
      call.answeredAt = ev.t;
      if (ev.bodyDiffers) call.bodyDiffers = true;
    } else if (ev.e === 'refused') call.refused = ev.message;
    else call.failed = ev.message;
  }
  return calls;
}

/** How many times each call (method, host, path) went out. */
export function countByKey(calls: readonly Pick<RecordedCall, 'key'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.key, (counts.get(c.key) ?? 0) + 1);
  return counts;
}

/**
 * The baseline's answer for a call a crash cell makes: the same request (same body) at the same
 * occurrence, else the same request at any occurrence (a repeat of a call the baseline made once),
 * else the call at that occurrence with a different body (reported), else null: the baseline never
 * made a call to that method, host and path.
 */
export function answerFor(
  recording: readonly RecordedCall[],
  call: { key: string; occurrence: number; bodyHash: string },
): { recorded: RecordedCall; bodyDiffers: boolean } | null {
  const same = recording.filter((r) => r.key === call.key && r.response);
  if (same.length === 0) return null;
  const sameBody = same.filter((r) => r.bodyHash === call.bodyHash);
  const exact = sameBody.find((r) => r.occurrence === call.occurrence) ?? sameBody[0];
  if (exact) return { recorded: exact, bodyDiffers: false };
  const at = same.find((r) => r.occurrence === call.occurrence) ?? same[same.length - 1]!;
  return { recorded: at, bodyDiffers: true };
}
