import { executed } from '../evidence.ts';
import type { CellObservation } from '../observation.ts';
import { WINDOW_STEP_POINTS, type WindowScenario } from './catalogue.ts';

/** What one window cell shows, from the world's ledger and worker A's death. */
export interface WindowOutcome {
  /** The finished step's own call reached the world again; null when the cell cannot say (see `why`). */
  reran: boolean | null;
  /** The resumer found nothing durable to go on from: the run itself was lost, not just the step. */
  lost: boolean;
  /** Between the step's end and worker A's death, as A's timer measured it; 0 for a kill at once. */
  realDelayMs: number | null;
  why: string | null;
}

/**
 * The step's call is the first of its kind in the run (the first requirement's model call, its
 * first tracker note: no earlier step makes one); it ran again when the world saw the same
 * operation once more, answered or deduplicated by its key.
 */
export function windowOutcome(obs: CellObservation & { scenario: WindowScenario }): WindowOutcome {
  const crash = obs.crash;
  const realDelayMs = crash && crash.point === obs.scenario.crashPoint ? (crash.delayMs ?? 0) : null;
  const lost = obs.status === 'lost';
  if (obs.status !== 'completed')
    return { reran: null, lost, realDelayMs, why: `the run ended ${obs.status}${obs.note ? `: ${obs.note}` : ''}` };
  if (realDelayMs === null) return { reran: null, lost, realDelayMs, why: 'worker A did not die at the point' };
  const { kind } = WINDOW_STEP_POINTS[obs.scenario.window.step];
  // The first checkpoint: the run came back and completed, which is all there is to keep.
  if (kind === null) return { reran: false, lost, realDelayMs, why: null };
  const calls = executed(obs.ledger)
    .filter((e) => e.kind === kind)
    .sort((a, b) => a.seq - b.seq);
  const first = calls[0];
  if (!first) return { reran: null, lost, realDelayMs, why: `the world saw no ${kind} call` };
  return { reran: calls.some((e) => e.seq > first.seq && e.opKey === first.opKey), lost, realDelayMs, why: null };
}
