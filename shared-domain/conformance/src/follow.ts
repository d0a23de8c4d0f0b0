import { type RunHandle, type RunView, type RuntimeAdapter, isTerminal } from '@vendor-review/pipeline';
import type { WorkerProcess } from '@vendor-review/testbed';
import { worldClient } from '@vendor-review/world';
import { MAIL_GRACE_MS, mailOwed, mailShown } from './delivery.ts';
import type { HarnessCost } from './observation.ts';

/** Who the harness's approvals are from, in the runs' records. */
export const APPROVER = 'compare-harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
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
  workers: () => WorkerProcess[];
  boundMs: number;
  /**
   * Approve when the run asks: true (the default) approves once with the harness's decision; a
   * function decides and records it itself; false never approves.
   */
  approve?: boolean | ((view: RunView) => Promise<void>);
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
      if (++statusErrors > STATUS_ERRORS_TOLERATED) throw err;
      return null;
    } finally {
      if (o.cost) {
        o.cost.polls++;
        o.cost.pollMs += performance.now() - t;
      }
    }
  };
  const mailOut = async (view: RunView): Promise<boolean> => {
    if (!o.worldUrl || !mailOwed(view)) return true;
    const ledger = await worldClient(o.worldUrl).ledger({ runId: o.handle.runId });
    return mailShown(ledger.filter((e) => e.runId === o.handle.runId));
  };
  for (;;) {
    const view = await read();
    if (view) {
      if (view.status === 'not-found') return { end: 'terminal', view, at: Date.now() };
      if (isTerminal(view.status)) {
        terminalSince ??= Date.now();
        if ((await mailOut(view)) || Date.now() - terminalSince > MAIL_GRACE_MS)
          return { end: 'terminal', view, at: Date.now() };
      } else {
        if (view.status === 'awaiting-approval' && o.approve !== false && !approved) {
          approved = true;
          if (typeof o.approve === 'function') await o.approve(view);
          else await o.adapter.approve(o.handle, { approved: true, by: APPROVER });
        }
        if (o.stopWhen && (await o.stopWhen(view))) return { end: 'stopped', view, at: Date.now() };
      }
    }
    if (o.workers().every((w) => !w.alive)) {
      const last = (await read()) ?? view;
      return { end: last && isTerminal(last.status) ? 'terminal' : 'exited', view: last, at: Date.now() };
    }
    if (Date.now() > deadline) return { end: 'timeout', view, at: Date.now() };
    await Promise.race([sleep(o.pollMs ?? 200), ...o.workers().map((w) => w.exited)]);
  }
}
