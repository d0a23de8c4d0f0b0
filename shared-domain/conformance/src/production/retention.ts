import { newRunId, isTerminal } from '@vendor-review/pipeline';
import { type Footprint } from '../adapter.ts';
import { type RunHandle } from '../adapter.ts';
import { oneRequirement } from '../request.ts';
import { WorkerProcess } from '@vendor-review/testbed';
import { POLICIES, reportWorkerGone, stopAll, supervise } from './supervisor.ts';
import { HazardSkipped, type HazardOutcome, type HazardRunner } from './types.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const items = (f: Footprint) => Object.values(f.items).reduce((s, n) => s + n, 0);
const describe = (f: Footprint) =>
  `${Object.entries(f.items)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')} (${kb(f.bytes)})`;
/** Nothing of it was removed. A live run may have grown meanwhile (Temporal's server goes on recording its timeouts). */
const kept = (before: Footprint, after: Footprint) =>
  after.bytes >= before.bytes && Object.entries(before.items).every(([k, n]) => (after.items[k] ?? 0) >= n);

/**
 * Four runs of one variant: `old` finishes, `waiting` stops at the approval with no worker left,
 * `live` is frozen mid-step by its worker; then `young` finishes. The window is set between the
 * two finishes, so only `old` is past it, and the runtime's own retention runs over the four.
 * What each run stores is measured from the runtime's stores before and after.
 */
export const retentionHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const drill = adapter.drills?.retention;
  if (!drill) throw new HazardSkipped(`${adapter.title} has no retention to run`);
  const config = { variant: scenario.variant, durability: null };
  const start = (what: string) =>
    adapter.startRun(oneRequirement(env.request), config, {
      runId: newRunId(`${scenario.runtime.slice(0, 2)}-keep-${what}`),
    });
  const spec = (h: RunHandle) => (name: string) => adapter.workerSpec(h, { name, crashPlan: null });
  const workers: WorkerProcess[] = [];
  const handles: RunHandle[] = [];
  try {
    const [old, waiting, live] = await Promise.all([start('old'), start('waiting'), start('live')]);
    handles.push(old, waiting, live);
    const liveWorker = new WorkerProcess('A', adapter.workerSpec(live, { name: 'A', crashPlan: 'after-fetch:stop' }));
    workers.push(liveWorker);
    // The waiting and the live run get where they stay while `old` runs; `young` starts once `old` has finished.
    const [oldRun, waitingRun] = await Promise.all([
      supervise({ adapter, handle: old, spec: spec(old), policy: POLICIES.hazard(0), boundMs: env.boundMs }),
      supervise({
        adapter,
        handle: waiting,
        spec: spec(waiting),
        policy: POLICIES.hazard(0),
        boundMs: env.boundMs,
        approve: false,
        stopWhen: (v) => v.status === 'awaiting-approval',
      }),
      liveWorker.waitForStop(1, env.boundMs),
    ]);
    workers.push(...oldRun.workers, ...waitingRun.workers);
    // Nobody is waiting with the waiting run: it is only durable, the case a careless cleanup takes.
    await stopAll([...oldRun.workers, ...waitingRun.workers]);
    // The old run's workers may be killed between recording its end and giving up its lease: a
    // supervisor that saw them die says so, as it would in production.
    for (const w of oldRun.workers) await reportWorkerGone(adapter, old, await w.exited);
    // Its workers gone, whatever the runtime records of the old run's finish is recorded by now.
    const oldStoppedAt = Date.now();
    if (oldRun.end.view?.status !== 'completed') throw new Error(`the old run did not complete (${oldRun.end.end})`);

    const young = await start('young');
    handles.push(young);
    const youngRun = await supervise({
      adapter,
      handle: young,
      spec: spec(young),
      policy: POLICIES.hazard(0),
      boundMs: env.boundMs,
    });
    workers.push(...youngRun.workers);
    await stopAll(youngRun.workers);
    if (youngRun.end.view?.status !== 'completed') throw new Error(`the young run did not complete`);
    if ((await adapter.status(waiting)).status !== 'awaiting-approval')
      throw new Error('the waiting run is not waiting for approval');
    const liveNow = (await adapter.status(live)).status;
    if (liveNow !== 'running') throw new Error(`the live run is ${liveNow}, not running`);

    const all = [old, young, waiting, live] as const;
    const before = await Promise.all(all.map((h) => drill.footprint(h)));
    // Taken just before the purge, so the time spent measuring does not move the window towards `old`.
    const olderThanMs = Date.now() - (oldStoppedAt + youngRun.end.at) / 2;
    const { removed } = await drill.purge({ olderThanMs, handles: all });
    const after = await Promise.all(all.map((h) => drill.footprint(h)));
    const statuses = await Promise.all([waiting, live].map((h) => adapter.status(h).then((v) => v.status)));

    const liveTouched =
      !kept(before[2]!, after[2]!) ||
      !kept(before[3]!, after[3]!) ||
      statuses[0] !== 'awaiting-approval' ||
      statuses[1] !== 'running' ||
      removed.includes(waiting.runId) ||
      removed.includes(live.runId);
    const verdict = liveTouched
      ? 'removed-live'
      : !kept(before[1]!, after[1]!) || removed.includes(young.runId)
        ? 'removed-young'
        : items(after[0]!) > 0
          ? 'kept-expired'
          : 'removed-finished-only';
    const outcome: HazardOutcome = {
      verdict,
      runId: old.runId,
      figures: {
        window: `${(olderThanMs / 1000).toFixed(1)} s`,
        'removed runs': removed.length,
        'old run before': describe(before[0]!),
        'old run after': items(after[0]!) === 0 ? `nothing (${kb(after[0]!.bytes)})` : describe(after[0]!),
        'young, waiting and live runs kept': !liveTouched && kept(before[1]!, after[1]!),
        'the four before': kb(before.reduce((s, f) => s + f.bytes, 0)),
        'the four after': kb(after.reduce((s, f) => s + f.bytes, 0)),
        how: drill.how,
      },
    };
    return outcome;
  } finally {
    await stopAll(workers);
    for (const h of handles) {
      const v = await adapter.status(h).catch(() => null);
      if (v && !isTerminal(v.status) && v.status !== 'not-found')
        await adapter.abandon?.(h, 'the retention drill is over').catch(() => {});
    }
  }
};
