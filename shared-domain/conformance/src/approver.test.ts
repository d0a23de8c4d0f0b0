import { describe, expect, it } from 'vitest';
import { expectedApproverInbox, type ApproverDeviation } from './catalogue/crash-rules.ts';
import { checkApproverInbox, checkCrashCell, judgesApproverInbox } from './crash-check.ts';
import { approverCount, computeEvidence, hazardHarm, repeatedOperations } from './evidence.ts';
import { baselineObservation, crashedObservation, withAsks } from './fixtures.ts';

const waiting = () => crashedObservation({ crashPoint: 'awaiting-approval', crashAfter: 11, resumeFrom: 11 });

describe("the approver's requests are counted apart from the repeat and duplicate rules", () => {
  it('told again on resume, the approver moves no figure of the crash row and breaks no rule', () => {
    const baseline = baselineObservation();
    const without = computeEvidence(waiting(), baseline);
    const obs = withAsks(waiting(), [{ worker: 'A' }, { worker: 'B' }]);
    const e = computeEvidence(obs, withAsks(baseline, [{ worker: 'A' }]));
    expect(e.repeated).toEqual(without.repeated);
    expect(e.repeatSeqs).toEqual(without.repeatSeqs);
    expect(e.sideEffectDuplicated).toBe(false);
    expect(e.extraModelCalls).toBe(without.extraModelCalls);
    expect(e.approver).toEqual({ asked: 2, inbox: 2 });
    expect(checkCrashCell(obs, baseline).violations).toEqual([]);
  });

  it('even with no baseline (a hazard run), a request seen twice is no repeat and no duplicate', () => {
    const plain = baselineObservation().ledger;
    const obs = withAsks(baselineObservation(), [{ worker: 'A' }, { worker: 'A' }]);
    expect(repeatedOperations(obs.ledger, null)).toEqual(repeatedOperations(plain, null));
    expect(hazardHarm(obs.ledger)).toEqual(hazardHarm(plain));
    expect(hazardHarm(obs.ledger).sideEffectDuplicated).toBe(false);
  });

  it('a keyed repeat reached the approver but the inbox kept one; an injected fault is no request', () => {
    const obs = withAsks(baselineObservation(), [{ worker: 'A' }, { worker: 'B', outcome: 'deduplicated' }]);
    expect(approverCount(obs.ledger)).toEqual({ asked: 2, inbox: 1 });
    const faulted = withAsks(baselineObservation(), [{ worker: 'A', outcome: 'fault' }, { worker: 'A' }]);
    expect(approverCount(faulted.ledger)).toEqual({ asked: 1, inbox: 1 });
  });
});

describe("what the approver's inbox must hold", () => {
  const naiveTwice: ApproverDeviation = { variant: 'naive', inbox: 2, why: 'the node runs again on resume' };
  const restarts: ApproverDeviation = { variant: 'naive', killedWhileWaiting: true, inbox: 2, why: 'restarted' };

  it('one request by the rule; a deviation by variant, and by whether the run was killed while waiting', () => {
    expect(expectedApproverInbox([], { variant: 'naive', killedWhileWaiting: true })).toEqual({ inbox: 1, why: null });
    expect(expectedApproverInbox([naiveTwice], { variant: 'naive', killedWhileWaiting: false }).inbox).toBe(2);
    expect(expectedApproverInbox([naiveTwice], { variant: 'hardened', killedWhileWaiting: false }).inbox).toBe(1);
    expect(expectedApproverInbox([restarts], { variant: 'naive', killedWhileWaiting: false }).inbox).toBe(1);
    expect(expectedApproverInbox([restarts], { variant: 'naive', killedWhileWaiting: true }).inbox).toBe(2);
  });

  it('judged in the baseline and at awaiting-approval only, and only in a completed run', () => {
    expect(judgesApproverInbox({ crashPoint: null })).toBe(true);
    expect(judgesApproverInbox({ crashPoint: 'awaiting-approval' })).toBe(true);
    expect(judgesApproverInbox({ crashPoint: 'after-model' })).toBe(false);
    const twice = withAsks(waiting(), [{ worker: 'A' }, { worker: 'B' }]);
    expect(checkApproverInbox(twice)).toEqual(["the approver's inbox holds 2 request(s), expected 1"]);
    expect(checkApproverInbox({ ...twice, scenario: { ...twice.scenario, approverDeviations: [naiveTwice] } })).toEqual(
      [],
    );
    expect(checkApproverInbox({ ...twice, status: 'lost' })).toBeNull();
    const elsewhere = withAsks(crashedObservation({ crashPoint: 'after-model', crashAfter: 5, resumeFrom: 4 }), []);
    expect(checkApproverInbox(elsewhere)).toBeNull();
    expect(checkApproverInbox(withAsks(baselineObservation(), []))).toEqual([
      "the approver's inbox holds 0 request(s), expected 1",
    ]);
  });
});
