import type { Client } from '@temporalio/client';
import type { BenchPreset } from '@vendor-review/conformance';

/** Chains per measurement and activities per chain, by the bench's preset. */
const SIZES: Record<BenchPreset, { chains: number; length: number }> = {
  smoke: { chains: 2, length: 3 },
  quick: { chains: 5, length: 15 },
  full: { chains: 15, length: 30 },
};

/**
 * Temporal's unit: one no-op activity (schedule, poll, complete, and the workflow task that
 * schedules the next). A chain of `length` of them against an empty workflow, in turn: (chain −
 * empty) ÷ length per pair, so starting and finishing a workflow is not counted as activity time.
 * Beside it, how long each workflow task waited between scheduled and started.
 */
export async function measureActivity(
  client: Client,
  taskQueue: string,
  preset: BenchPreset,
): Promise<{ us: number[]; dispatchUs: number[] }> {
  const { chains, length } = SIZES[preset];
  const dispatch: number[] = [];
  const run = async (n: number, i: number) => {
    const workflowId = `bench-noop-${process.pid}-${n}-${i}-${Date.now()}`;
    const t = performance.now();
    await client.workflow.execute('noopChain', { taskQueue, workflowId, args: [n] });
    const us = (performance.now() - t) * 1000;
    if (n > 0 && i >= 0) dispatch.push(...(await taskWaits(client, workflowId)));
    return us;
  };
  await run(length, -1); // warm-up: the worker's first workflow task pays for loading the bundle
  const per: number[] = [];
  for (let i = 0; i < chains; i++) {
    const empty = await run(0, i);
    const chain = await run(length, i);
    per.push(Math.max(0, chain - empty) / length);
  }
  return { us: per, dispatchUs: dispatch };
}

/** Scheduled → started of every workflow task of one run, µs, from the history's event times. */
async function taskWaits(client: Client, workflowId: string): Promise<number[]> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  const at = (e: NonNullable<typeof events>[number]) =>
    Number(e.eventTime?.seconds ?? 0) * 1e6 + Math.round((e.eventTime?.nanos ?? 0) / 1000);
  const out: number[] = [];
  let scheduled: number | null = null;
  for (const e of events ?? []) {
    if (e.workflowTaskScheduledEventAttributes) scheduled = at(e);
    else if (e.workflowTaskStartedEventAttributes && scheduled !== null) {
      out.push(at(e) - scheduled);
      scheduled = null;
    }
  }
  return out;
}
