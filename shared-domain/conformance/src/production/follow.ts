import { type RunHandle, type RunView, type RuntimeAdapter, isTerminal } from '@vendor-review/pipeline';
import type { WorkerProcess } from '@vendor-review/testbed';
import { APPROVER } from '../cell.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Followed {
  /** How the wait ended: the run reached a final status, `stopWhen` said so, its workers are gone, or the bound passed. */
  end: 'terminal' | 'stopped' | 'exited' | 'timeout';
  view: RunView | null;
  at: number;
}

/**
 * Polls a run while its workers live, approving it when it asks, until it is finished, `stopWhen`
 * holds (a run retrying forever is watched only so long), every worker has exited, or the bound.
 */
export async function followRun(o: {
  adapter: RuntimeAdapter;
  handle: RunHandle;
  workers: () => WorkerProcess[];
  boundMs: number;
  approve?: boolean;
  stopWhen?: (view: RunView) => Promise<boolean> | boolean;
  pollMs?: number;
}): Promise<Followed> {
  const deadline = Date.now() + o.boundMs;
  let approved = false;
  for (;;) {
    const view = await o.adapter.status(o.handle).catch(() => null);
    if (view) {
      if (isTerminal(view.status) || view.status === 'not-found') return { end: 'terminal', view, at: Date.now() };
      if (view.status === 'awaiting-approval' && o.approve !== false && !approved) {
        await o.adapter.approve(o.handle, { approved: true, by: APPROVER });
        approved = true;
      }
      if (o.stopWhen && (await o.stopWhen(view))) return { end: 'stopped', view, at: Date.now() };
    }
    if (o.workers().every((w) => !w.alive)) {
      const last = await o.adapter.status(o.handle).catch(() => view);
      return { end: last && isTerminal(last.status) ? 'terminal' : 'exited', view: last, at: Date.now() };
    }
    if (Date.now() > deadline) return { end: 'timeout', view, at: Date.now() };
    await sleep(o.pollMs ?? 200);
  }
}
