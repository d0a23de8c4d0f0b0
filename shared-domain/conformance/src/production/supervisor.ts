import { sleep } from '@vendor-review/worker-io';
import { isTerminal } from '@vendor-review/pipeline';
import { type WorkerEnding } from '../adapter.ts';
import { type RunHandle, type RuntimeAdapter, type WorkerSpec } from '../adapter.ts';
import { WorkerProcess, type WorkerLife } from '@vendor-review/testbed';
import { followRun, type FollowOptions, type Followed } from '../follow.ts';

const NAMES = ['B', 'C', 'D', 'E', 'F', 'G'];

/**
 * What a supervisor does when a run's worker goes, written once and configured per harness:
 * - `restarts`: deaths it replaces before it leaves the run where it is (a "not now" exit, refused
 *   by a live hold, is never counted: the next try waits for the hold to lapse, notNowPause);
 * - `reportsGone`: it tells the runtime a worker died (workerGone), so what the dead one held is
 *   freed now rather than when it times out;
 * - `secondOnLapsedHoldMs`: with the first worker still alive, it sends a second one once the
 *   runtime's records have shown nobody holding the run for this long (null: never).
 */
export interface SupervisorPolicy {
  restarts: number;
  reportsGone: boolean;
  secondOnLapsedHoldMs: number | null;
}

/**
 * The harnesses' policies. The crash cell replaces nothing and reports nothing: the resuming
 * worker meets the dead one's lease, as the runtime leaves it. A hazard reports every death and
 * replaces as many as its drill needs. Chaos replaces crash loops up to a cap and sends a second
 * worker past a lapsed lease. The lab's worker reports nobody gone on purpose: its machine went
 * down, and the restart is meant to meet the lease.
 */
export const POLICIES = {
  crashCell: { restarts: 0, reportsGone: false, secondOnLapsedHoldMs: null },
  hazard: (restarts: number): SupervisorPolicy => ({ restarts, reportsGone: true, secondOnLapsedHoldMs: null }),
  chaos: { restarts: 8, reportsGone: true, secondOnLapsedHoldMs: 1_000 },
  lab: { restarts: Infinity, reportsGone: false, secondOnLapsedHoldMs: null },
} as const satisfies Record<string, SupervisorPolicy | ((n: number) => SupervisorPolicy)>;

/** After a "not now" exit, the shortest pause before the next try, and the longest. */
const NOT_NOW_PAUSE_MS = 250;
const NOT_NOW_PAUSE_MAX_MS = 30_000;

/**
 * The pause after a "not now" exit: until the hold that refused it lapses, as the runtime's record
 * says (a lease's expiry), so the next worker meets a free run instead of the same refusal; the
 * shortest pause when the runtime cannot tell.
 */
export async function notNowPauseMs(adapter: RuntimeAdapter, handle: RunHandle): Promise<number> {
  const lapses = (await adapter.holdLapsesInMs?.(handle).catch(() => null)) ?? 0;
  return Math.min(NOT_NOW_PAUSE_MAX_MS, Math.max(NOT_NOW_PAUSE_MS, lapses));
}

export async function notNowPause(adapter: RuntimeAdapter, handle: RunHandle): Promise<void> {
  await sleep(await notNowPauseMs(adapter, handle));
}

/**
 * A supervisor saw one of a run's workers exit: whatever it held for the run is given up now, not
 * at its timeout (workerGone). A "not now" exit was refused the run and held nothing to give up.
 */
export async function reportWorkerGone(adapter: RuntimeAdapter, handle: RunHandle, life: WorkerLife): Promise<void> {
  if (life.pid === null || adapter.isRetryableExit(life.exitCode)) return;
  await adapter.workerGone?.(handle, { name: life.name, pid: life.pid });
}

export interface Supervised {
  end: Followed;
  /** Every worker it started, in order (the first is `first`). */
  workers: WorkerProcess[];
  /** Workers it started because the one before had died without finishing the run. */
  restarts: number;
}

/**
 * A run's workers as a supervisor (systemd, Kubernetes) runs them: one at a time, and a new one
 * when the last exited without finishing the run. A "not now" exit (the dead worker's lease not
 * yet expired) is retried under the same name, after the pause the hold asks for (notNowPause),
 * without counting; any other death counts against `restarts`, after which the run is left where
 * it is. The crash cell's resume is this with no restarts.
 *
 * The chaos campaign's PerRunPool (compare/src/chaos/per-run-pool.ts) shares the exit handling above but not
 * this loop: it serves many runs at once between strikes, counts only workers that ended by
 * themselves (a signal there is the injector's strike, here the worker's own crash point), and
 * sends a second worker when a lease lapses under a live one. The lab worker reports nobody gone
 * on purpose: its machine went down, and the restart is meant to meet the lease.
 */
export async function supervise(
  o: {
    adapter: RuntimeAdapter;
    handle: RunHandle;
    first?: WorkerProcess;
    spec: (name: string) => WorkerSpec | Promise<WorkerSpec>;
    policy: SupervisorPolicy;
    boundMs: number;
    /** The names its workers take, in order (default B, C, D…). */
    names?: readonly string[];
    /** Called for every worker as it starts (e.g. to freeze-and-restart around it). */
    onWorker?: (w: WorkerProcess) => void;
  } & Pick<FollowOptions, 'approve' | 'stopWhen' | 'worldUrl' | 'onView' | 'cost' | 'pollMs' | 'gate'>,
): Promise<Supervised> {
  const deadline = Date.now() + o.boundMs;
  const names = o.names ?? NAMES;
  const workers: WorkerProcess[] = [];
  let restarts = 0;
  let next = 0;
  let w = o.first ?? new WorkerProcess(names[next++]!, await o.spec(names[0]!));
  for (;;) {
    workers.push(w);
    o.onWorker?.(w);
    const end = await followRun({
      adapter: o.adapter,
      handle: o.handle,
      workers: () => [w],
      boundMs: Math.max(1_000, deadline - Date.now()),
      ...(o.approve !== undefined ? { approve: o.approve } : {}),
      ...(o.stopWhen ? { stopWhen: o.stopWhen } : {}),
      ...(o.worldUrl ? { worldUrl: o.worldUrl } : {}),
      ...(o.onView ? { onView: o.onView } : {}),
      ...(o.cost ? { cost: o.cost } : {}),
      ...(o.pollMs ? { pollMs: o.pollMs } : {}),
      ...(o.gate ? { gate: o.gate } : {}),
    });
    if (end.end !== 'exited' || (end.view && isTerminal(end.view.status))) return { end, workers, restarts };
    const life = await w.exited;
    if (o.policy.reportsGone) await reportWorkerGone(o.adapter, o.handle, life).catch(() => {});
    const notNow = o.adapter.isRetryableExit(life.exitCode);
    if ((!notNow && (restarts >= o.policy.restarts || next >= names.length)) || Date.now() > deadline)
      return { end, workers, restarts };
    if (notNow) await notNowPause(o.adapter, o.handle);
    else restarts++;
    // Refused, it comes back as itself: the same unit, restarted.
    const name = notNow ? w.life.name : names[next++]!;
    w = new WorkerProcess(name, await o.spec(name));
  }
}

/** How a worker ended, as plain data for the runtime's explain(). */
export function endingOf(w: WorkerProcess): WorkerEnding {
  return { name: w.life.name, exitCode: w.life.exitCode, signal: w.life.signal, output: w.output() };
}

/**
 * Ends every worker still running once a drill has what it needs (a Temporal worker serves until
 * told; a LangGraph worker waiting for an approval does not leave on SIGTERM): SIGKILL, as nothing
 * they would still do is observed.
 */
export async function stopAll(workers: readonly WorkerProcess[]): Promise<void> {
  await Promise.all(workers.map((w) => w.kill()));
}

/** A runtime's words as a figure: whole up to a sentence's length, cut with an ellipsis beyond. */
export function clip(text: string, max = 240): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
