import { lastDurableBefore } from '@vendor-review/conformance';
import { describe, expect, it } from 'vitest';
import { toDurableRecord, workflowTaskClaims } from './durable-record.ts';

const T0 = 1_700_000_000_000;
const t = (i: number) => new Date(T0 + i * 10).toISOString();

describe('a workflow history as a durable record', () => {
  it('two siblings completed back to back read as one fact; machinery events are skipped', () => {
    const rec = toDurableRecord([
      {
        eventId: 30,
        eventType: 'ActivityTaskScheduled',
        time: t(1),
        activityId: 'FETCH:soc2:0',
        activityType: 'fetchPage',
      },
      {
        eventId: 31,
        eventType: 'ActivityTaskCompleted',
        time: t(2),
        activityId: 'FETCH:soc2:0',
        activityType: 'fetchPage',
      },
      {
        eventId: 32,
        eventType: 'ActivityTaskCompleted',
        time: t(3),
        activityId: 'FETCH:soc2:1',
        activityType: 'fetchPage',
      },
      { eventId: 33, eventType: 'WorkflowTaskScheduled', time: t(4) },
      { eventId: 34, eventType: 'WorkflowTaskCompleted', time: t(5), workerIdentity: 'A/1' },
    ]);
    const d = lastDurableBefore(rec, T0 + 100);
    expect(d.short).toBe('#32 FETCH ×2');
    expect(d.long).toBe(
      '2 FETCH activities completed, the last as history event 32: activity FETCH:soc2:1 done; then history event 34: workflow task completed',
    );
  });

  it('names the worker that wrote an event from its identity, and ignores events after the crash', () => {
    const rec = toDurableRecord([
      { eventId: 1, eventType: 'WorkflowExecutionStarted', time: t(0) },
      {
        eventId: 5,
        eventType: 'ActivityTaskStarted',
        time: t(1),
        activityId: 'EXTRACT:soc2',
        attempt: 2,
        workerIdentity: 'B/4242',
      },
      {
        eventId: 6,
        eventType: 'ActivityTaskCompleted',
        time: t(9),
        activityId: 'EXTRACT:soc2',
        workerIdentity: 'B/4242',
        startedEventId: 5,
      },
    ]);
    expect(rec.marks.map((m) => m.writer)).toEqual([null, 'B', 'B']);
    // The close names the start of its attempt: who the server handed it to.
    expect(rec.marks.map((m) => m.parentId)).toEqual([undefined, undefined, '5']);
    expect(lastDurableBefore(rec, T0 + 50).short).toBe('#1 workflow started');
    // The started event is a claim the history keeps after the attempt closed: which attempt, and whose.
    expect(rec.claims).toEqual([{ step: 'EXTRACT', attempt: 2, worker: 'B', fence: 'runtime' }]);
  });

  it('claims each workflow task hand-out, newer only once the server has ended one; open: the one held now', () => {
    const wt = (eventId: number, eventType: string, workerIdentity?: string) => ({
      eventId,
      eventType,
      time: t(eventId),
      ...(workerIdentity ? { workerIdentity } : {}),
    });
    // A holds a task when it freezes; the server times it out twice, each time handing it out again.
    const events = [
      wt(2, 'WorkflowTaskScheduled'),
      wt(3, 'WorkflowTaskStarted', 'A/1'),
      wt(4, 'WorkflowTaskCompleted', 'A/1'),
      wt(5, 'WorkflowTaskScheduled'),
      wt(6, 'WorkflowTaskStarted', 'A/1'),
      wt(7, 'WorkflowTaskTimedOut'),
      wt(8, 'WorkflowTaskScheduled'),
      wt(9, 'WorkflowTaskStarted', 'A/1'),
      wt(10, 'WorkflowTaskTimedOut'),
      wt(11, 'WorkflowTaskScheduled'),
      wt(12, 'WorkflowTaskStarted', 'B/2'),
    ];
    const claim = (attempt: number, worker: string) => ({ step: null, attempt, worker, fence: 'runtime' });
    // A completed task passes nothing on: the next hand-out is no newer.
    expect(workflowTaskClaims(events)).toEqual([claim(1, 'A'), claim(1, 'A'), claim(2, 'A'), claim(3, 'B')]);
    expect(workflowTaskClaims(events, { open: true })).toEqual([claim(3, 'B')]);
    expect(workflowTaskClaims(events.slice(0, 7), { open: true })).toEqual([]);
    expect(workflowTaskClaims(events.slice(0, 5), { open: true })).toEqual([claim(1, 'A')]);
    expect(toDurableRecord(events).claims).toEqual(workflowTaskClaims(events));
  });
});
