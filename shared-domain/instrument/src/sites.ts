import { act, arrive, isArmed, reach } from './act.ts';
import { CRASH_POINT_NAMES, POINT_SITES, type CrashPointName } from './points.ts';

/**
 * The sites that are not calls, for a runtime's harness to report from the extension points its
 * runtime offers: a step beginning, the runtime writing a step's result, the run waiting for a person.
 */

/** The points a step of this name reaches when it begins (case aside: LangGraph's VALIDATE, Temporal's validate). */
function stepPoints(step: string): CrashPointName[] {
  const name = step.toUpperCase();
  return CRASH_POINT_NAMES.filter((p) => {
    const site = POINT_SITES[p];
    return site.kind === 'step' && site.steps.includes(name);
  });
}

/** A step is beginning: awaited by the hook, so a kill lands before the step's first call. */
export async function stepBegins(step: string, detail = ''): Promise<void> {
  for (const point of stepPoints(step)) await reach(point, { detail: detail || `step=${step}` });
}

/** The runtime is writing a step's result, inside its own write (before it commits). */
export async function commitWritten(detail = ''): Promise<void> {
  await reach('mid-commit', { detail });
}

/**
 * The start call of a run is about to be made, in the process that makes it: a delayed kill (the
 * first checkpoint's `start-call+δ`) returns at once and lands δ ms after the call began.
 */
export async function startCalled(detail = ''): Promise<void> {
  await reach('start-call', { detail });
}

/** Whether anyone must watch for the run's wait for a person (watching costs a read a tick). */
export function waitArmed(): boolean {
  return isArmed('awaiting-approval');
}

/** The run is durably waiting for a person, as the runtime's own record says. */
export async function runWaits(detail = ''): Promise<void> {
  await reach('awaiting-approval', { detail });
}

/**
 * Watches for the wait with `isWaiting` (a read of the runtime's own record) every `pollMs` while
 * the plan arms it, and reaches the point each time a run is seen waiting anew. Returns a stop.
 */
export function watchForWait(isWaiting: () => Promise<string[]>, pollMs = 50): () => void {
  if (!waitArmed()) return () => {};
  const seen = new Set<string>();
  let stopped = false;
  const tick = async (): Promise<void> => {
    while (!stopped) {
      const waiting = await isWaiting().catch(() => [] as string[]);
      for (const id of waiting) {
        if (seen.has(id)) continue;
        seen.add(id);
        const a = arrive('awaiting-approval');
        if (a) await act(a, `run=${id}`);
      }
      await new Promise((r) => setTimeout(r, pollMs).unref());
    }
  };
  void tick();
  return () => {
    stopped = true;
  };
}
