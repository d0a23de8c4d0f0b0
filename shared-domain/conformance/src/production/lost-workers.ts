import { sleep } from '@vendor-review/worker-io';
import { newRunId, retryRuleFor, stepKindOf } from '@vendor-review/pipeline';
import { withRecord } from './outcome.ts';
import type { WorkerProcess } from '@vendor-review/testbed';
import { worldClient } from '@vendor-review/world';
import { oneRequirement } from '../request.ts';
import { ownErrorsOfStep } from './own-errors.ts';
import { POLICIES, stopAll, supervise } from './supervisor.ts';
import { howItDied } from './last-words.ts';
import type { HazardRunner } from './types.ts';

/**
 * A step failing transiently while the machines under it die: the model call of EXTRACT answers
 * 503, then stalls twice (and the harness SIGKILLs the worker inside each stall, mid-call), then
 * answers 503 again. Only the 503s are the step's own errors; the two stalls are lost machines,
 * which must spend nothing of the rule's cap, and must not reset it either.
 * - retry-lost-workers: the 503s stop one short of the cap, then the call answers. The hardened run
 *   must complete; a runtime that counts a lost worker as an attempt dead-letters it below the cap
 *   (a false dead letter).
 * - retry-lost-workers-exhausted: the 503s never stop. The hardened run must dead-letter after
 *   exactly the cap of own errors; a runtime whose count lives in the dead worker's memory starts
 *   again in the next one and lets the step meet more (over the cap).
 *
 * The stalls are the world's `slow` fault, long enough that the worker is surely still inside the
 * call when it dies; the harness sees a stall begin in the world's fault book (a rule's `fired`
 * grows when a request arrives), not in the worker's output.
 */
const CASES = {
  'retry-lost-workers': { clears: true },
  'retry-lost-workers-exhausted': { clears: false },
} as const;

const STEP = 'EXTRACT';
const KILLS = 2;
const STALL_MS = 30_000;
const POLL_MS = 100;
const SETTLE_MS = 3_000;

export const lostWorkersHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const world = worldClient(env.worldUrl);
  const { clears } = CASES[scenario.hazard as keyof typeof CASES];
  const cap = retryRuleFor(stepKindOf(STEP)).maxAttempts;
  const handle = await adapter.startRun(
    oneRequirement(env.request),
    { variant: scenario.variant, durability: null },
    { runId: newRunId(`${scenario.runtime.slice(0, 2)}-lost-workers`) },
  );
  const scope = { route: 'model', runId: handle.runId, step: STEP } as const;
  // The fault book serves the first live rule: one 503, the two stalls, then the rest of the 503s.
  await world.addFault({ ...scope, kind: '503', times: 1 });
  const stall = await world.addFault({ ...scope, kind: 'slow', times: KILLS, delayMs: STALL_MS });
  await world.addFault({ ...scope, kind: '503', times: clears ? cap - 2 : 'forever' });

  let kills = 0;
  const stallsBegun = async () => (await world.faults()).find((f) => f.id === stall.id)?.fired ?? KILLS;
  /** Kills the worker as soon as a stall it has not been killed in begins (it is inside the call). */
  const killInStall = async (w: WorkerProcess) => {
    while (w.alive && kills < KILLS) {
      if ((await stallsBegun().catch(() => kills)) > kills) {
        kills++;
        await w.kill();
        return;
      }
      await sleep(POLL_MS);
    }
  };
  const watchers: Promise<void>[] = [];
  const started = Date.now();
  const ownSoFar = async () => ownErrorsOfStep(await world.ledger({ runId: handle.runId }), STEP).count;
  const sup = await supervise({
    adapter,
    handle,
    spec: (name) => adapter.workerSpec(handle, { name, crashPlan: null }),
    policy: POLICIES.hazard(KILLS + 1),
    boundMs: env.boundMs,
    onWorker: (w) => watchers.push(killInStall(w)),
    // Past the cap and still running: that is the verdict (a run retrying without end is abandoned).
    stopWhen: async () => (await ownSoFar()) > cap,
  });
  // Stopped past the cap: the run may be writing its dead letter right now (over the cap); give it a moment.
  let ended = sup.end.end === 'terminal';
  for (const until = Date.now() + SETTLE_MS; sup.end.end === 'stopped' && !ended && Date.now() < until;) {
    await sleep(POLL_MS * 2);
    const status = (await adapter.status(handle).catch(() => null))?.status;
    ended = status === 'completed' || status === 'failed';
  }
  await stopAll(sup.workers);
  await Promise.all(watchers);

  const view = await adapter.inspect(handle).catch(() => sup.end.view);
  const ledger = await world.ledger({ runId: handle.runId });
  const failure = view?.state?.failure ?? null;
  const step = ownErrorsOfStep(ledger, failure?.step ?? STEP);
  const calls = ledger.filter((e) => e.step === STEP && e.kind === 'model').length;
  const verdict =
    !ended && (sup.end.end === 'timeout' || sup.end.end === 'stopped')
      ? 'looks-stuck'
      : view?.status === 'completed'
        ? 'recovered'
        : failure
          ? step.count > cap
            ? 'over-cap'
            : step.count === cap || step.permanent
              ? 'dead-lettered'
              : 'false-dead-letter'
          : view?.status === 'failed'
            ? 'failed-at-once'
            : 'worker-died';
  if (verdict === 'looks-stuck') await adapter.abandon?.(handle, 'retrying without end').catch(() => undefined);
  const outcome = await withRecord(adapter, handle, {
    verdict,
    ledger,
    figures: {
      'own errors (ledger)': step.count,
      cap,
      'workers killed mid-call': kills,
      [`${STEP} calls`]: calls,
      'worker processes': sup.workers.length,
      'final status': view?.status ?? 'unknown',
      'dead letter': failure ? `${failure.step} after ${failure.attempts} attempt(s)` : null,
      'seconds to the end': Math.round((sup.end.at - started) / 100) / 10,
      ...(verdict === 'worker-died' && sup.workers.at(-1) ? { 'the last worker': howItDied(sup.workers.at(-1)!) } : {}),
    },
  });
  return outcome;
};
