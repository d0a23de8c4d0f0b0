import { describe, expect, it } from 'vitest';
import {
  baselineObservation,
  crashedObservation,
  finalState,
  lgRecord,
  PIPELINE,
  T0,
  tmRecord,
} from '../test/fixtures.ts';
import { fromLangGraph, fromTemporal, eventName } from './durable.ts';
import { computeEvidence, duplicatedSideEffects, lastDurableBefore, repeatedOperations } from './evidence.ts';
import { parseLedger } from './ledger.ts';

// Indexes into PIPELINE: 4 = first EXTRACT model call, 5 = first tracker note, 11 = mail.
describe('evidence from constructed ledgers', () => {
  const baseline = baselineObservation();

  it('a boundary crash repeats nothing and matches the baseline', () => {
    const obs = crashedObservation({ crashPoint: 'boundary', crashAfter: 4, resumeFrom: 4 });
    const e = computeEvidence(obs, baseline);
    expect(e.repeatedOperations).toEqual([]);
    expect(e.extraModelCalls).toBe(0);
    expect(e.extraCostUsd).toBe(0);
    expect(e.sideEffectDuplicated).toBe(false);
    expect(e.stateDuplicated).toBe(false);
    expect(e.finalMatchesBaseline).toBe(true);
    expect(e.firstAfterResumeShort).toBe('EXTRACT model call');
    expect(e.recoveryMs).toBe(50);
  });

  it('after-model shows exactly one extra model call with its tokens and cost', () => {
    const obs = crashedObservation({ crashPoint: 'after-model', crashAfter: 5, resumeFrom: 4 });
    const e = computeEvidence(obs, baseline);
    expect(e.repeatedOperations).toEqual(['model:EXTRACT:aaa']);
    expect(e.extraModelCalls).toBe(1);
    expect(e.extraTokens).toBe(1020);
    expect(e.extraCostUsd).toBeCloseTo(0.0021, 6);
    expect(e.sideEffectDuplicated).toBe(false);
    // the second occurrence (worker B's) is the one a timeline highlights
    const bSeq = obs.ledger.filter((x) => x.opKey === 'model:EXTRACT:aaa')[1]!.seq;
    expect(e.repeatSeqs).toEqual([bSeq]);
  });

  it('a page fetched twice in the baseline is not a repeat; a third fetch is', () => {
    const obs = crashedObservation({ crashPoint: 'after-fetch', crashAfter: 8, resumeFrom: 7 });
    const r = repeatedOperations(obs.ledger, baseline.ledger);
    expect(r).toEqual([
      { opKey: 'GET /vendors/acme/security', kind: 'web', step: 'FETCH', count: 3, baselineCount: 2 },
    ]);
  });

  it('naive after-deliver: the mail is delivered twice, a duplicated side effect', () => {
    const obs = crashedObservation({ crashPoint: 'after-deliver', crashAfter: 12, resumeFrom: 11 });
    const e = computeEvidence(obs, baseline);
    expect(e.sideEffectDuplicated).toBe(true);
    expect(e.sideEffectDuplicatedWhy[0]).toMatch(/mail delivered 2× \(expected 1\)/);
    expect(e.repeatedOperations).toEqual(['mail:ddd']);
  });

  it('hardened after-deliver: the second send is deduplicated by the key, no duplicated side effect', () => {
    const hb = baselineObservation('langgraph', 'hardened');
    const obs = crashedObservation({
      variant: 'hardened',
      crashPoint: 'after-deliver',
      crashAfter: 12,
      resumeFrom: 11,
      dedupe: true,
    });
    const e = computeEvidence(obs, hb);
    expect(e.sideEffectDuplicated).toBe(false);
    // the request itself was re-sent: that is a repeated operation, just a harmless one
    expect(e.repeatedOperations).toEqual(['mail:ddd']);
  });

  it('after-progress without a key: a second tracker note', () => {
    const e = computeEvidence(
      crashedObservation({ crashPoint: 'after-progress', crashAfter: 6, resumeFrom: 5 }),
      baseline,
    );
    expect(e.sideEffectDuplicated).toBe(true);
    expect(
      duplicatedSideEffects(
        crashedObservation({ crashPoint: 'after-progress', crashAfter: 6, resumeFrom: 5, dedupe: true }).ledger,
        baseline.ledger,
      ),
    ).toEqual([]);
  });

  it('a different final review is reported as not matching the baseline', () => {
    const changed = finalState('x', { draft: { text: 'something else', model: 'sim-1' } });
    const e = computeEvidence(
      crashedObservation({ crashPoint: 'after-model', crashAfter: 5, resumeFrom: 4, final: changed }),
      baseline,
    );
    expect(e.finalMatchesBaseline).toBe(false);
  });

  it('a forked checkpoint chain is duplicated state', () => {
    const obs = {
      ...crashedObservation({ crashPoint: 'boundary', crashAfter: 4, resumeFrom: 4 }),
      durableFinal: lgRecord(12, 5),
    };
    const e = computeEvidence(obs, baseline);
    expect(e.stateDuplicated).toBe(true);
    expect(e.stateDuplicatedWhy[0]).toMatch(/forks/);
  });

  it('a mid-model crash: the aborted call is billed and counted, its re-send too', () => {
    const obs = crashedObservation({ crashPoint: 'mid-model', crashAfter: 5, resumeFrom: 4 });
    obs.ledger[4] = { ...obs.ledger[4]!, outcome: 'aborted' };
    const e = computeEvidence(obs, baseline);
    expect(e.extraModelCalls).toBe(1);
    expect(e.extraCostUsd).toBeCloseTo(0.0021, 6);
  });

  it('injected faults are not counted as executed operations', () => {
    const obs = crashedObservation({ crashPoint: 'boundary', crashAfter: 4, resumeFrom: 4 });
    obs.ledger.push({ ...obs.ledger[1]!, seq: 99, outcome: 'fault', fault: '503' });
    expect(computeEvidence(obs, baseline).repeatedOperations).toEqual([]);
  });

  it('without a baseline, anything seen twice is the repeat', () => {
    const obs = crashedObservation({ crashPoint: 'after-model', crashAfter: 5, resumeFrom: 4 });
    const r = repeatedOperations(obs.ledger, null).map((x) => x.opKey);
    expect(r).toContain('model:EXTRACT:aaa');
  });

  it('temporal: recovery counts only history events carrying worker B identity', () => {
    const tb = baselineObservation('temporal', 'naive');
    const obs = crashedObservation({ runtime: 'temporal', crashPoint: 'after-model', crashAfter: 5, resumeFrom: 4 });
    obs.ledger = obs.ledger.filter((e) => e.worker === 'A'); // B made no world call yet
    obs.durableFinal = fromTemporal([
      { eventId: 1, eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED', time: new Date(T0).toISOString() },
      {
        eventId: 2,
        eventType: 'EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT',
        time: new Date(obs.crash!.at + 100).toISOString(),
      },
      {
        eventId: 3,
        eventType: 'EVENT_TYPE_WORKFLOW_TASK_STARTED',
        time: new Date(obs.crash!.at + 900).toISOString(),
        workerIdentity: '1002@host',
      },
    ]);
    expect(computeEvidence(obs, tb).recoveryMs).toBe(900);
  });
});

describe('durable records', () => {
  it('names the last checkpoint before the crash, with its pending writes', () => {
    const rec = fromLangGraph({
      checkpoints: [
        { checkpointId: 'c0', parentId: null, step: -1, source: 'input' },
        { checkpointId: 'c1', parentId: 'c0', step: 0, source: 'loop', node: 'SELECT_PAGE' },
      ],
      pendingWrites: [
        { checkpointId: 'c1', taskId: 't1', channel: 'fetched', node: 'FETCH' },
        { checkpointId: 'c1', taskId: 't2', channel: 'fetched', node: 'FETCH' },
      ],
    });
    const d = lastDurableBefore(rec, T0);
    expect(d.short).toBe('cp 0 SELECT_PAGE +2w');
    expect(d.long).toMatch(/2 pending write\(s\) from FETCH/);
  });

  it('says so when nothing was durable', () => {
    expect(lastDurableBefore(fromLangGraph({ checkpoints: [], pendingWrites: [] }), T0).short).toBe('nothing');
  });

  it('temporal: the last completed activity, and events after the crash are ignored', () => {
    const rec = tmRecord(12, T0);
    const d = lastDurableBefore(rec, T0 + 7 * 60 + 1);
    expect(d.short).toMatch(/^#7 /);
    expect(eventName('EVENT_TYPE_ACTIVITY_TASK_COMPLETED')).toBe('ActivityTaskCompleted');
    expect(eventName('ActivityTaskCompleted')).toBe('ActivityTaskCompleted');
  });
});

describe('cross-run keys and parallel siblings', () => {
  it('a mail whose key names the run is expected once, not compared with the baseline key', () => {
    const obs = crashedObservation({ crashPoint: 'boundary', crashAfter: 4, resumeFrom: 4 });
    obs.ledger = obs.ledger.map((e) => (e.kind === 'mail' ? { ...e, opKey: 'mail:other-run' } : e));
    const e = computeEvidence(obs, baselineObservation());
    expect(e.repeatedOperations).toEqual([]);
    expect(e.sideEffectDuplicated).toBe(false);
  });

  it('temporal: two siblings completed back to back read as one fact, machinery events are skipped', () => {
    const t = (i: number) => new Date(T0 + i * 10).toISOString();
    const rec = fromTemporal([
      {
        eventId: 30,
        eventType: 'ActivityTaskScheduled',
        time: t(1),
        activityId: 'FETCH:soc2:0',
        activityType: 'fetchPage',
      },
      { eventId: 31, eventType: 'ActivityTaskCompleted', time: t(2), activityId: 'FETCH:soc2:0' },
      { eventId: 32, eventType: 'ActivityTaskCompleted', time: t(3), activityId: 'FETCH:soc2:1' },
      { eventId: 33, eventType: 'WorkflowTaskScheduled', time: t(4) },
      { eventId: 34, eventType: 'WorkflowTaskCompleted', time: t(5), workerIdentity: 'A/1' },
    ]);
    const d = lastDurableBefore(rec, T0 + 100);
    expect(d.short).toBe('#32 FETCH ×2');
    expect(d.long).toMatch(
      /^2 FETCH activities completed, the last as history event 32: activity FETCH:soc2:1 done; then history event 34: workflow task completed$/,
    );
  });
});

describe('ledger parsing', () => {
  it('accepts ISO or epoch times and sorts by seq', () => {
    const body = {
      entries: [
        { ...PIPELINE[1], seq: 2, at: new Date(T0 + 5).toISOString(), runId: 'r', worker: 'A', outcome: 'ok' },
        { ...PIPELINE[0], seq: 1, at: T0, runId: 'r', worker: 'A', outcome: 'ok' },
      ],
    };
    const parsed = parseLedger(body);
    expect(parsed.map((e) => e.seq)).toEqual([1, 2]);
    expect(parsed[1]!.at).toBe(T0 + 5);
  });

  it('rejects an entry without an opKey', () => {
    expect(() => parseLedger({ entries: [{ seq: 1, at: T0, kind: 'web', outcome: 'ok' }] })).toThrow();
  });
});
