import { type OperationKind } from '@vendor-review/pipeline';
import { expectationFor, expectedApproverInbox, WAITING_POINT, type Expectation } from './catalogue/crash-rules.ts';
import { approverCount, computeEvidence, executed, type Evidence } from './evidence.ts';
import type { CellObservation, StopObservation } from './observation.ts';
import type { Scenario } from './scenarios.ts';

/**
 * Holds one crashed cell to what its crash point must show (domain/crash-expectations.ts), from
 * the evidence alone: the world's ledger and the durable record. Returns the violations in plain
 * words; none means the cell conforms. Pure, so the conformance suite and the report share it.
 */
export interface CrashVerdict {
  expectation: Expectation;
  evidence: Evidence;
  violations: string[];
}

// The kinds the repeat rules judge: the approver's requests are counted apart (evidence.ts UNJUDGED_KINDS).
const KINDS: OperationKind[] = ['web', 'model', 'tracker', 'mail'];

/** Extra executions per kind beyond the baseline, as the evidence counted them. */
export function extraByKind(evidence: Evidence): Record<OperationKind, number> {
  const out: Record<OperationKind, number> = { web: 0, model: 0, tracker: 0, mail: 0, approver: 0 };
  for (const r of evidence.repeated) out[r.kind] += r.count - r.baselineCount;
  return out;
}

/**
 * The approver's inbox against what the runtime must leave there, for an uncrashed run or one
 * killed while it waited (other cells are not judged on it: null). A run that did not complete is
 * not judged either: its inbox says nothing about the unit of replay.
 */
/** The cells the approver's inbox is judged in: the uncrashed baseline, and a kill (or stop) while waiting. */
export function judgesApproverInbox(s: Pick<Scenario, 'crashPoint'>): boolean {
  return s.crashPoint === null || s.crashPoint === WAITING_POINT;
}

export function checkApproverInbox(obs: Pick<CellObservation, 'scenario' | 'status' | 'ledger'>): string[] | null {
  if (!judgesApproverInbox(obs.scenario) || obs.status !== 'completed') return null;
  const point = obs.scenario.crashPoint;
  const { inbox, why } = expectedApproverInbox(obs.scenario.approverDeviations ?? [], {
    variant: obs.scenario.variant,
    killedWhileWaiting: point === WAITING_POINT,
  });
  const seen = approverCount(obs.ledger).inbox;
  return seen === inbox
    ? []
    : [`the approver's inbox holds ${seen} request(s), expected ${inbox}${why ? ` (${why})` : ''}`];
}

/** A stopped worker left by itself (an exit, or death by the SIGTERM) or was killed when the grace ended. */
export function leftBy(s: StopObservation): 'itself' | 'killed' {
  return s.left === 'killed' ? 'killed' : 'itself';
}

export function checkCrashCell(obs: CellObservation, baseline: CellObservation | null): CrashVerdict {
  const point = obs.scenario.crashPoint;
  if (point === null) throw new Error(`${obs.scenario.id} is a baseline, not a crashed cell`);
  const expectation = expectationFor(point, {
    deviations: obs.scenario.deviations,
    variant: obs.scenario.variant,
    durability: obs.durability ?? obs.scenario.durability,
    ...(obs.scenario.stop ? { stop: obs.scenario.stop } : {}),
    ...(obs.scenario.stepOutlastsGrace ? { stepOutlastsGrace: true } : {}),
  });
  const evidence = computeEvidence(obs, baseline);
  const violations: string[] = [];
  const v = (text: string) => violations.push(text);

  if (!baseline || baseline.status !== 'completed') v('its baseline did not complete, so nothing can be judged');
  if (obs.crash?.point !== point) v(`worker A did not die at ${point}${obs.note ? ` (${obs.note})` : ''}`);
  if (obs.scenario.stop === 'term' && !obs.stopping) v(`worker A was never asked to stop at ${point}`);
  const { expected } = expectation;
  if (expected.kind === 'not-reached') {
    v(`its runtime does not reach ${point}, so the cell should not have run`);
    return { expectation, evidence, violations };
  }

  if (expected.kind === 'varies') {
    if (obs.status !== 'completed' && obs.status !== 'lost') v(`ended ${obs.status}: ${obs.note ?? ''}`);
    return { expectation, evidence, violations };
  }
  if (expected.kind === 'lost') {
    if (obs.status !== 'lost') v(`expected the run to be lost (nothing durable), but it ended ${obs.status}`);
    if (obs.durableAtCrash?.marks.some((m) => m.kind === 'checkpoint')) v('something durable survived the crash');
    return { expectation, evidence, violations };
  }
  if (obs.status !== 'completed') v(`ended ${obs.status}${obs.note ? `: ${obs.note}` : ''}`);
  if (obs.status === 'completed' && !evidence.finalMatchesBaseline) v('the final review differs from the baseline');
  const extra = extraByKind(evidence);

  if (expected.kind === 'restart') {
    // Everything worker A did before it died, B did again.
    const byA = new Set(executed(obs.ledger.filter((e) => e.worker === 'A')).map((e) => e.opKey));
    const byB = new Set(executed(obs.ledger.filter((e) => e.worker !== 'A')).map((e) => e.opKey));
    const notRepeated = [...byA].filter((op) => !byB.has(op));
    if (notRepeated.length) v(`a restart should repeat everything worker A did, but not: ${notRepeated.join(', ')}`);
    const effectsBeforeCrash = obs.ledger.some(
      (e) => e.worker === 'A' && (e.kind === 'tracker' || e.kind === 'mail') && e.outcome === 'ok',
    );
    const duplicate = obs.scenario.variant === 'naive' && effectsBeforeCrash;
    if (evidence.sideEffectDuplicated !== duplicate)
      v(
        `duplicated side effect: ${evidence.sideEffectDuplicated ? 'yes' : 'no'}, expected ${duplicate ? 'yes' : 'no'}`,
      );
    return { expectation, evidence, violations };
  }

  const { outcome } = expected;
  for (const kind of KINDS) {
    const range = outcome.repeats[kind] ?? { min: 0, max: 0 };
    if (extra[kind] < range.min || extra[kind] > range.max) {
      const want = range.min === range.max ? `${range.min}` : `${range.min}–${range.max}`;
      v(`${kind} operations repeated ${extra[kind]}×, expected ${want}`);
    }
  }
  if (evidence.stateDuplicated) v(`duplicated state: ${evidence.stateDuplicatedWhy.join('; ')}`);
  const left = obs.stopping ? leftBy(obs.stopping) : null;
  if (outcome.leaves && left && left !== outcome.leaves)
    v(
      `asked to stop, worker A ${left === 'killed' ? `was still there when the ${obs.stopping!.graceMs} ms grace ended` : `left by itself after ${obs.stopping!.leftAfterMs} ms`}; expected it to ${outcome.leaves === 'killed' ? 'be killed at the end of the grace' : 'leave by itself inside the grace'}`,
    );
  if (evidence.sideEffectDuplicated !== outcome.duplicateEffect) {
    v(
      `duplicated side effect: ${evidence.sideEffectDuplicated ? `yes (${evidence.sideEffectDuplicatedWhy.join('; ')})` : 'no'}, expected ${outcome.duplicateEffect ? 'yes' : 'no'}`,
    );
  }
  return { expectation, evidence, violations };
}
