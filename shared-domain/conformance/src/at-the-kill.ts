import { MID_COMMIT_STEP } from '@vendor-review/instrument';
import type { DurableRecord } from './adapter.ts';
import type { CellObservation } from './observation.ts';

/**
 * What the store held when worker A died inside the runtime's commit (`mid-commit`), read while
 * no worker was alive. A checkpointer keeps a finished step twice over: its pending write (written
 * as the step ends) and the next checkpoint (the transaction the kill cuts). `put` and `put_writes`
 * are not ordered (langgraph#8039), so which of them had committed decides whether the step runs again.
 */
export interface AtTheKill {
  step: string;
  /** The step's pending write was committed. */
  resultKept: boolean;
  /** The checkpoint after the step was committed: the kill came after the commit, not inside it. */
  commitKept: boolean;
}

const isStep = (step: string | null) => step !== null && step.split('+').includes(MID_COMMIT_STEP);

export function atTheKill(obs: Pick<CellObservation, 'scenario' | 'durableAtCrash'>): AtTheKill | null {
  return obs.scenario.crashPoint === 'mid-commit' ? heldAt(obs.durableAtCrash) : null;
}

function heldAt(record: DurableRecord | null): AtTheKill | null {
  if (record?.kind !== 'checkpoints') return null;
  const mine = record.marks.filter((m) => isStep(m.step));
  return {
    step: MID_COMMIT_STEP,
    resultKept: mine.some((m) => m.kind === 'pending-write'),
    commitKept: mine.some((m) => m.kind === 'checkpoint'),
  };
}

/** "EXTRACT's pending write committed · its checkpoint not (killed inside the commit)". */
export function atTheKillText(a: AtTheKill): string {
  return `${a.step}'s pending write ${a.resultKept ? 'committed' : 'not committed'} · its checkpoint ${a.commitKept ? 'committed (the kill came after the commit)' : 'not (killed inside the commit)'}`;
}
