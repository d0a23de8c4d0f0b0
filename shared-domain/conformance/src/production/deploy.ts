import { newRunId, isTerminal } from '@vendor-review/pipeline';
import { oneRequirement } from '../request.ts';
import { WorkerProcess } from '@vendor-review/testbed';
import { worldClient } from '@vendor-review/world';
import { followRun } from '../follow.ts';
import { reviewAgainstWorld } from './review-check.ts';
import { clip, endingOf, POLICIES, stopAll, supervise } from './supervisor.ts';
import { withRecord } from './outcome.ts';
import { HazardSkipped, type HazardRunner } from './types.ts';

/**
 * Where last release's worker dies: once the run is durably waiting for its approval. Every
 * requirement went through VERIFY under the old code, so the changed step is in the record, and
 * the state holds the pages under their old key. (Any durability mode has written the state by
 * then, so what is tested is the deploy, not what a crash between checkpoints loses.)
 */
const CRASH = 'awaiting-approval';

/** Runtimes that say nothing of their own waits: the run is stuck once untouched three times this long. */
const DEFAULT_PATIENCE_MS = 10_000;

/**
 * The verdict of a deploy row from its end, the world's answer key and the ledger. A clear refusal
 * claims nothing ran on what the code could not read: only where the ledger shows no call after
 * the resume; a refusal after calls went on and did something first.
 */
export function judgeResumeAfterDeploy(o: {
  completed: boolean;
  /** Whether the completed review is the one the vendor's pages support; null when it did not complete. */
  reviewRight: boolean | null;
  lastRelease: boolean;
  refused: boolean;
  callsAfter: number;
}): 'resumed' | 'read-blindly' | 'wrong-review' | 'refused-clearly' | 'broke' {
  if (o.completed) return o.reviewRight === false ? 'wrong-review' : o.lastRelease ? 'resumed' : 'read-blindly';
  return o.refused && o.callsAfter === 0 ? 'refused-clearly' : 'broke';
}

/**
 * A deploy between a crash and the resume. `deploy-v1-state`: last release's worker runs the
 * review and is killed; the record is what that release left; today's worker (as the variant ships
 * it: hardened with the change guarded, naive without) resumes. `deploy-unknown-format`: today's
 * worker is killed, something in a format this code does not read lands in the run's record, and
 * today's worker resumes. Judged from the run's end, the world's answer key, and the runtime's own
 * words on why it would not go on.
 */
export const deployHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const drills = adapter.drills;
  const drill = drills?.deploy;
  if (!drills || !drill)
    throw new HazardSkipped(`${adapter.title} has no deploy drill: it cannot run last release's code`);
  const lastRelease = scenario.hazard === 'deploy-v1-state' ? drill.lastRelease : undefined;
  if (scenario.hazard === 'deploy-v1-state' && !lastRelease)
    throw new HazardSkipped(`${adapter.title} has no drill that writes its record as last release would`);
  const world = worldClient(env.worldUrl);
  const config = { variant: scenario.variant, durability: null };
  const request = oneRequirement(env.request);
  const handle = await adapter.startRun(request, config, {
    runId: newRunId(`${scenario.runtime.slice(0, 2)}-${lastRelease ? 'deploy' : 'format'}`),
  });

  const aSpec = lastRelease
    ? await lastRelease.previousWorker(handle, { name: 'A', crashPlan: CRASH })
    : adapter.workerSpec(handle, { name: 'A', crashPlan: CRASH });
  const a = new WorkerProcess('A', aSpec);
  // No approval yet: the decision comes after the deploy, to today's code.
  await followRun({ adapter, handle, workers: () => [a], boundMs: env.boundMs, approve: false });
  if (a.alive) await a.kill();
  const died = await a.exited;
  if (died.crash?.point !== CRASH)
    throw new Error(
      `worker A (${lastRelease ? lastRelease.previous : 'today’s code'}) did not die at ${CRASH}: ${died.signal ?? `exit ${died.exitCode}`}; ${died.logTail.slice(-300)}`,
    );
  if (died.pid !== null) await adapter.workerGone?.(handle, { name: 'A', pid: died.pid });
  const left = lastRelease ? await lastRelease.leftByPrevious(handle) : await drill.foreignFormat(handle);
  const seqAtResume = Math.max(0, ...(await world.ledger({ runId: handle.runId })).map((e) => e.seq));

  const resumed = Date.now();
  let refusal: Awaited<ReturnType<typeof drills.explain>> = null;
  const started: WorkerProcess[] = [];
  // A run that waits on code it will not run, and says nothing, is broke once nothing has touched it
  // (a call to the world, a new status, a worker's arrival) for three times the runtime's patience.
  const quietMs = 3 * (adapter.patienceMs ?? DEFAULT_PATIENCE_MS);
  let touched = { at: resumed, status: '', calls: 0 };
  const untouched = async (status: string): Promise<boolean> => {
    const calls = (await world.ledger({ runId: handle.runId })).length;
    const lastArrival = Math.max(0, ...started.map((w) => w.life.loadedAt ?? w.life.startedAt));
    if (status !== touched.status || calls !== touched.calls) touched = { at: Date.now(), status, calls };
    return Date.now() - Math.max(touched.at, lastArrival) > quietMs;
  };
  const run = await supervise({
    adapter,
    handle,
    spec: (name) =>
      lastRelease ? lastRelease.nextWorker(handle, { name }) : adapter.workerSpec(handle, { name, crashPlan: null }),
    policy: POLICIES.hazard(0),
    boundMs: env.boundMs,
    // A runtime whose run waits on code it cannot replay never ends by itself: its word ends the watch.
    stopWhen: async (view) =>
      (refusal = await drills.explain(handle, started.map(endingOf))) !== null || (await untouched(view.status)),
    onWorker: (w) => started.push(w),
  });
  await stopAll(run.workers);
  refusal ??= await drills.explain(handle, run.workers.map(endingOf));
  const view = await adapter.inspect(handle).catch(() => run.end.view);
  if (view && !isTerminal(view.status) && view.status !== 'not-found')
    await adapter.abandon?.(handle, 'the deploy drill is over').catch(() => {});
  const ledger = await world.ledger({ runId: handle.runId });
  const review = view?.status === 'completed' ? reviewAgainstWorld(request, view.state) : null;
  const callsAfter = ledger.filter((e) => e.seq > seqAtResume).length;
  const verdict = judgeResumeAfterDeploy({
    completed: view?.status === 'completed',
    reviewRight: review?.right ?? null,
    lastRelease: !!lastRelease,
    refused: refusal !== null,
    callsAfter,
  });
  const outcome = await withRecord(adapter, handle, {
    verdict,
    ledger,
    figures: {
      'killed at': `${CRASH} (${lastRelease ? lastRelease.previous : 'today’s code'})`,
      'the record': left,
      'final status': view?.status ?? 'unknown',
      ...(refusal ? { where: refusal.where, error: clip(refusal.error) } : {}),
      ...(review ? { 'review as the pages say': review.right ? 'yes' : review.wrong.join('; ') } : {}),
      'calls to the world after the resume': callsAfter,
      'seconds from resume to the end': Math.round((run.end.at - resumed) / 100) / 10,
    },
  });
  return outcome;
};
