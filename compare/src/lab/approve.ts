import os from 'node:os';
import { isTerminal } from '@vendor-review/pipeline';
import { isProcessAlive } from '@vendor-review/testbed';
import { UsageError } from '@vendor-review/worker-io';
import { appendApproval, loadRun, readLives } from './runs.ts';
import { openRuntime } from './runtimes.ts';
import { requireUp } from './state.ts';

/**
 * `pnpm lab approve RUN [--reject]`: the human decision, through the adapter as a `pnpm compare`
 * cell sends it. It needs no live worker (LangGraph stores it in a table, Temporal as a signal in
 * the history); the lab notes whether one was alive, which the report shows beside the crash.
 */
export interface ApproveOptions {
  runId: string | undefined;
  approved: boolean;
  by: string | undefined;
  note: string | undefined;
}

export async function approveLabRun(dir: string, o: ApproveOptions): Promise<number> {
  const state = requireUp(dir);
  const run = loadRun(dir, o.runId);
  const id = run.handle.runId;
  const { adapter } = await openRuntime(state, run.runtime);
  try {
    const view = await adapter.status(run.handle);
    if (view.status === 'not-found')
      throw new UsageError(`run ${id} is gone: ${view.reason ?? 'the runtime no longer knows it'}`, { seeHelp: false });
    if (isTerminal(view.status))
      throw new UsageError(`run ${id} has already ${view.status}: there is nothing to decide`, { seeHelp: false });
    const by = o.by ?? (os.userInfo().username || 'lab');
    const decision = { approved: o.approved, by, ...(o.note ? { note: o.note } : {}) };
    await adapter.approve(run.handle, decision);
    const alive = readLives(dir, id).find((l) => l.exitedAt === null && l.pid !== null && isProcessAlive(l.pid));
    appendApproval(dir, id, { at: Date.now(), aliveWorker: alive?.name ?? null, decision });
    const verb = o.approved ? 'approved' : 'rejected';
    const when =
      view.status === 'awaiting-approval'
        ? alive
          ? `worker ${alive.name} takes it from here`
          : 'no worker is alive: the next one picks the decision up'
        : `the run is still ${view.status}: the decision waits for it at the approval step`;
    console.log(`${verb} run ${id} as ${by}; ${when}`);
    return 0;
  } finally {
    await adapter.close();
  }
}
