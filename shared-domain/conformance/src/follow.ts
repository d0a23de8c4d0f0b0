import { sleep } from '@vendor-review/worker-io';
import { type RunView, isTerminal } from '@vendor-review/pipeline';
import { type RunHandle, type RuntimeAdapter } from './adapter.ts';
import type { WorkerProcess } from '@vendor-review/testbed';
import { worldClient } from '@vendor-review/world';
import { MAIL_GRACE_MS, mailDelivered } from './delivery.ts';
import type { HarnessCost } from './observation.ts';

/** Who the harness's approvals are from, in the runs' records. */
export const APPROVER = 'compare-harness';

/** Status reads that may fail in a row (a database or server hiccup while a worker dies next door). */
const STATUS_ERRORS_TOLERATED = 20;

export interface Followed {
  /** How the wait ended: the run reached a final status, `stopWhen` said so, its workers are gone, or the bound passed. */
  end: 'terminal' | 'stopped' | 'exited' | 'timeout';
  view: RunView | null;
  at: number;
}

export interface FollowOptions {
  adapter: RuntimeAdapter;
  handle: RunHandle;
  /**
   * The run's workers: once every one has exited the wait ends. Without it the wait outlives
   * workers (a pool that restarts its own, a chaos strike that takes every worker down).
   */
  workers?: () => WorkerProcess[];
  boundMs: number;
  /**
   * Approve when the run asks: true (the default) approves once with the harness's decision; a
   * function decides and records it itself, and returns false when it did not (yet): it is asked
   * again at the next poll; false never approves.
   */
  approve?: boolean | ((view: RunView) => Promise<boolean | void>);
  stopWhen?: (view: RunView) => Promise<boolean> | boolean;
  pollMs?: number;
  /**
   * A terminal run that owes a mail (delivery.ts) ends the wait only once the world's ledger shows
   * the mail, or MAIL_GRACE_MS after it turned terminal: an outbox sends a moment after the status.
   */
  worldUrl?: string;
  /** Every status read (`null` when it failed, with its error). */
  onView?: (view: RunView | null, error?: unknown) => void;
  /** The polls and their time, counted here. */
  cost?: HarnessCost;
  /** Status reads that may fail in a row before the wait gives up (STATUS_ERRORS_TOLERATED). */
  statusErrorsTolerated?: number;
  /** Awaited before each poll: the window suite holds a cell's polls while another cell's δ is measured. */
  gate?: () => Promise<void>;
}

/**
 * The one way a run is driven to its end: polls it while its workers live, approving it when it
 * asks, until it is finished (with its mail out, when asked to wait for it), `stopWhen` holds (a
 * run retrying forever is watched only so long), every worker has exited, or the bound. A worker
 * that exits wakes the wait at once.
 */
export async function followRun(o: FollowOptions): Promise<Followed> {
  const deadline = Date.now() + o.boundMs;
  let approved = false;
  let statusErrors = 0;
  let terminalSince: number | null = null;
  const read = async (): Promise<RunView | null> => {
    const t = performance.now();
    try {
      const view = await o.adapter.status(o.handle);
      statusErrors = 0;
      o.onView?.(view);
      return view;
    } catch (err) {
      o.onView?.(null, err);
      if (++statusErrors > (o.statusErrorsTolerated ?? STATUS_ERRORS_TOLERATED)) throw err;
      return null;
    } finally {
      if (o.cost) {
        o.cost.polls++;
        o.cost.pollMs += performance.now() - t;
      }
    }
  };
  const world = o.worldUrl ? worldClient(o.worldUrl) : null;
  // A ledger that cannot be read right now is a mail not seen yet: the grace bounds the wait.
  const mailOut = async (view: RunView): Promise<boolean> =>
    !world || (await mailDelivered(world, o.handle.runId, view).catch(() => false));
  for (;;) {
    await o.gate?.();
    const view = await read();
    if (view) {
      if (view.status === 'not-found') return { end: 'terminal', view, at: Date.now() };
      if (isTerminal(view.status)) {
        terminalSince ??= Date.now();
        if ((await mailOut(view)) || Date.now() - terminalSince > MAIL_GRACE_MS)
          return { end: 'terminal', view, at: Date.now() };
      } else {
        if (view.status === 'awaiting-approval' && o.approve !== false && !approved) {
          if (typeof o.approve === 'function') approved = (await o.approve(view)) !== false;
          else {
            approved = true;
            await o.adapter.approve(o.handle, { approved: true, by: APPROVER });
          }
        }
        if (o.stopWhen && (await o.stopWhen(view))) return { end: 'stopped', view, at: Date.now() };
      }
    }
    const workers = o.workers?.();
    if (workers?.every((w) => !w.alive)) {
      const last = (await read()) ?? view;
      return { end: last && isTerminal(last.status) ? 'terminal' : 'exited', view: last, at: Date.now() };
    }
    if (Date.now() > deadline) return { end: 'timeout', view, at: Date.now() };
    // Woken early only by a worker that exits now: one that left earlier would wake every wait at once.
    await Promise.race([sleep(o.pollMs ?? 200), ...(workers ?? []).filter((w) => w.alive).map((w) => w.exited)]);
  }
}
