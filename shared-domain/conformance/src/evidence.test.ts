import { describe, expect, it } from 'vitest';
import {
  baselineObservation,
  crashedObservation,
  finalState,
  checkpointerRecord,
  T0,
  journalRecord,
} from './fixtures.ts';
import { computeEvidence, duplicatedSideEffects, lastDurableBefore, repeatedOperations } from './evidence.ts';

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
      {
        opKey: 'GET /vendors/acme/security',
        subject: 'GET /vendors/acme/security',
        kind: 'web',
        step: 'FETCH',
        count: 3,
        baselineCount: 2,
      },
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
    const hb = baselineObservation('checkpointer', 'hardened');
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
      durableFinal: checkpointerRecord(12, 5),
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

  it('journal: recovery counts only history events carrying worker B identity', () => {
    const tb = baselineObservation('journal', 'naive');
    const obs = crashedObservation({ runtime: 'journal', crashPoint: 'after-model', crashAfter: 5, resumeFrom: 4 });
    obs.ledger = obs.ledger.filter((e) => e.worker === 'A'); // B made no world call yet
    const event = (id: number, at: number, what: string, writer: string | null) => ({
      id: String(id),
      kind: 'event' as const,
      at,
      step: null,
      short: `#${id} ${what}`,
      long: what,
      writer,
      order: id,
      bookkeeping: true,
    });
    obs.durableFinal = {
      runtime: 'journal',
      kind: 'history',
      marks: [
        event(1, T0, 'workflow started', null),
        // The server times out the dead worker's task on its own: not B's progress.
        event(2, obs.crash!.at + 100, 'wf task timed out', null),
        event(3, obs.crash!.at + 900, 'wf task started', 'B'),
      ],
    };
    expect(computeEvidence(obs, tb).recoveryMs).toBe(900);
  });
});

describe('durable records', () => {
  it('names the last checkpoint before the crash', () => {
    expect(lastDurableBefore(checkpointerRecord(8), T0).short).toBe('cp 6 VALIDATE');
  });

  it('says so when nothing was durable', () => {
    expect(lastDurableBefore({ runtime: 'checkpointer', kind: 'checkpoints', marks: [] }, T0).short).toBe('nothing');
    expect(lastDurableBefore({ runtime: 'plain', kind: 'none', marks: [] }, T0).long).toBe(
      'plain keeps nothing durable',
    );
  });

  it('a history: the last completed activity, and events after the crash are ignored', () => {
    const d = lastDurableBefore(journalRecord(12, T0), T0 + 7 * 60 + 1);
    expect(d.short).toBe('#7 FETCH');
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
});
