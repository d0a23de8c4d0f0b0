import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { summarizeHistory, type HistoryJson } from './history.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../test/histories/v1-hardened-approved.json', import.meta.url), 'utf8'),
) as HistoryJson;

describe('summarizeHistory', () => {
  const events = summarizeHistory(fixture);

  it('names events as the Temporal UI does and keeps their ids in order', () => {
    expect(events[0]).toMatchObject({ eventId: 1, eventType: 'WorkflowExecutionStarted' });
    expect(events.at(-1)?.eventType).toBe('WorkflowExecutionCompleted');
    expect(events.map((e) => e.eventId)).toEqual(events.map((_, i) => i + 1));
  });

  it('names the activity on every activity event, with attempt and worker identity where the server records them', () => {
    const completed = events.filter((e) => e.eventType === 'ActivityTaskCompleted');
    expect(completed.map((e) => e.activityId)).toContain('FETCH:soc2:0');
    expect(completed.every((e) => e.activityType && e.workerIdentity)).toBe(true);
    const started = events.find((e) => e.eventType === 'ActivityTaskStarted' && e.activityId === 'VALIDATE');
    expect(started).toMatchObject({ activityType: 'validate', attempt: 1 });
  });

  it('links each close to the start of the attempt it closes, which names the worker the attempt was handed to', () => {
    const byId = new Map(events.map((e) => [e.eventId, e]));
    const closes = events.filter((e) => e.eventType === 'ActivityTaskCompleted');
    expect(closes.length).toBeGreaterThan(0);
    for (const c of closes) {
      const start = byId.get(c.startedEventId ?? -1);
      expect(start).toMatchObject({ eventType: 'ActivityTaskStarted', activityId: c.activityId });
      expect(start?.workerIdentity).toBeTruthy();
    }
  });

  it('shows the parallel FETCH: all siblings scheduled before any completes', () => {
    const fetches = events.filter((e) => e.activityId?.startsWith('FETCH:sso:'));
    const lastScheduled = Math.max(
      ...fetches.filter((e) => e.eventType === 'ActivityTaskScheduled').map((e) => e.eventId),
    );
    const firstCompleted = Math.min(
      ...fetches.filter((e) => e.eventType === 'ActivityTaskCompleted').map((e) => e.eventId),
    );
    expect(fetches.filter((e) => e.eventType === 'ActivityTaskScheduled').length).toBeGreaterThanOrEqual(2);
    expect(lastScheduled).toBeLessThan(firstCompleted);
  });
});
