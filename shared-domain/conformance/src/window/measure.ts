import { executed } from '../evidence.ts';
import type { CellObservation } from '../observation.ts';
import { WINDOW_STEP_POINTS, type WindowScenario } from './catalogue.ts';

/** The first checkpoint's own questions, from the runtime's durable record and the world's ledger. */
export interface StartOutcome {
  /** The runtime's record held the run while no worker was alive, right after the kill; null: its adapter does not count runs. */
  existedAtKill: boolean | null;
  /** Runs the runtime's record holds under the run's id once worker B (which made the start call again) is done. */
  runsAfter: number | null;
  /** Review mails the world received for the run: one per run that got to the end. */
  mails: number;
  /** Retrying the start with the same id made a second run: the record holds two, or the world got two mails. */
  secondRun: boolean;
}

/** What one window cell shows, from the world's ledger and worker A's death. */
export interface WindowOutcome {
  /** The finished step's own call reached the world again; null when the cell cannot say (see `why`). */
  reran: boolean | null;
  /**
   * Nothing durable was left of the run: the resumer could not go on with it, or (the first
   * checkpoint) the runtime's record did not hold it when worker A died.
   */
  lost: boolean;
  /** Between the step's end (or the start call) and worker A's death, as A's timer measured it; 0 for a kill at once. */
  realDelayMs: number | null;
  /** How much later than asked A's timer fired (real − asked δ); null for a kill at once or one that did not land. */
  lateMs: number | null;
  /** The share of the machine's CPU (all cores, /proc/stat) busy over the δ; null with no /proc/stat, or no tick in δ. */
  cpuBusy: number | null;
  /** The /proc/stat ticks (10 ms of one core each) `cpuBusy` rests on; null with no /proc/stat. */
  cpuTicks: number | null;
  /** The first checkpoint only. */
  start: StartOutcome | null;
  why: string | null;
}

function startOutcome(obs: CellObservation): StartOutcome {
  const atKill = obs.durableAtCrash?.runs;
  const runsAfter = obs.durableFinal?.runs ?? null;
  const mails = executed(obs.ledger).filter((e) => e.kind === 'mail').length;
  return {
    existedAtKill: atKill === undefined ? null : atKill > 0,
    runsAfter,
    mails,
    secondRun: (runsAfter ?? 0) > 1 || mails > 1,
  };
}

/**
 * The step's call is the first of its kind in the run (the first requirement's model call, its
 * first tracker note: no earlier step makes one); it ran again when the world saw the same
 * operation once more, answered or deduplicated by its key. The first checkpoint has no call of its
 * own: it keeps the run or loses it.
 */
export function windowOutcome(obs: CellObservation & { scenario: WindowScenario }): WindowOutcome {
  const crash = obs.crash;
  const atPoint = crash && crash.point === obs.scenario.crashPoint ? crash : null;
  const realDelayMs = atPoint ? (atPoint.delayMs ?? 0) : null;
  const asked = obs.scenario.window.delayMs;
  const timer = {
    lateMs: atPoint?.delayMs !== undefined && asked > 0 ? atPoint.delayMs - asked : null,
    cpuBusy: atPoint?.cpu?.share ?? null,
    cpuTicks: atPoint?.cpu?.ticks ?? null,
  };
  const { kind } = WINDOW_STEP_POINTS[obs.scenario.window.step];
  const start = kind === null && realDelayMs !== null ? startOutcome(obs) : null;
  const lost = obs.status === 'lost' || start?.existedAtKill === false;
  const out = { lost, realDelayMs, ...timer, start };
  if (obs.status !== 'completed')
    return { ...out, reran: null, why: `the run ended ${obs.status}${obs.note ? `: ${obs.note}` : ''}` };
  if (realDelayMs === null) return { ...out, reran: null, why: 'worker A did not die at the point' };
  // Counted once, as lost: the run completed only because worker B's start made it anew.
  if (start?.existedAtKill === false)
    return { ...out, reran: null, why: 'the runtime held no run when worker A died: worker B’s start made it anew' };
  // The first checkpoint: the run came back and completed, which is all there is to keep.
  if (kind === null) return { ...out, reran: false, why: null };
  const calls = executed(obs.ledger)
    .filter((e) => e.kind === kind)
    .sort((a, b) => a.seq - b.seq);
  const first = calls[0];
  if (!first) return { ...out, reran: null, why: `the world saw no ${kind} call` };
  return { ...out, reran: calls.some((e) => e.seq > first.seq && e.opKey === first.opKey), why: null };
}
