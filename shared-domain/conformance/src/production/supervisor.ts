import {
  type WorkerEnding,
  type RunHandle,
  type RunView,
  type RuntimeAdapter,
  type WorkerSpec,
  isTerminal,
} from '@vendor-review/pipeline';
import { WorkerProcess, type WorkerLife } from '@vendor-review/testbed';
import { followRun, type Followed } from './follow.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NAMES = ['B', 'C', 'D', 'E', 'F', 'G'];

/** After a "not now" exit (another worker's lease still holds the run), the pause before the next try. */
export const NOT_NOW_PAUSE_MS = 250;

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
 * yet expired) is retried without counting; any other death counts against `restarts`, after
 * which the run is left where it is.
 *
 * The chaos campaign's PerRunPool (compare/src/chaos/per-run-pool.ts) shares the exit handling above but not
 * this loop: it serves many runs at once between strikes, counts only workers that ended by
 * themselves (a signal there is the injector's strike, here the worker's own crash point), and
 * sends a second worker when a lease lapses under a live one. The lab worker reports nobody gone
 * on purpose: its machine went down, and the restart is meant to meet the lease.
 */
export async function supervise(o: {
  adapter: RuntimeAdapter;
  handle: RunHandle;
  first?: WorkerProcess;
  spec: (name: string) => WorkerSpec | Promise<WorkerSpec>;
  restarts: number;
  boundMs: number;
  approve?: boolean;
  stopWhen?: (view: RunView) => Promise<boolean> | boolean;
  /** Called for every worker as it starts (e.g. to freeze-and-restart around it). */
  onWorker?: (w: WorkerProcess) => void;
}): Promise<Supervised> {
  const deadline = Date.now() + o.boundMs;
  const workers: WorkerProcess[] = [];
  let restarts = 0;
  let next = 0;
  let w = o.first ?? new WorkerProcess(NAMES[next++]!, await o.spec(NAMES[0]!));
  for (;;) {
    workers.push(w);
    o.onWorker?.(w);
    const end = await followRun({
      adapter: o.adapter,
      handle: o.handle,
      workers: () => [w],
      boundMs: Math.max(1_000, deadline - Date.now()),
      ...(o.approve === false ? { approve: false } : {}),
      ...(o.stopWhen ? { stopWhen: o.stopWhen } : {}),
    });
    if (end.end !== 'exited' || (end.view && isTerminal(end.view.status))) return { end, workers, restarts };
    const life = await w.exited;
    await reportWorkerGone(o.adapter, o.handle, life).catch(() => {});
    const notNow = o.adapter.isRetryableExit(life.exitCode);
    if ((!notNow && restarts >= o.restarts) || Date.now() > deadline || next >= NAMES.length)
      return { end, workers, restarts };
    if (notNow) await sleep(NOT_NOW_PAUSE_MS);
    else restarts++;
    const name = NAMES[next++]!;
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
