import { newRunId } from '@vendor-review/pipeline';
import { WorkerProcess } from '@vendor-review/testbed';
import { worldClient, type FaultRuleInput, type LedgerEntry } from '@vendor-review/world';
import { followRun } from '../follow.ts';
import { oneRequirement } from '../request.ts';
import { howItDied } from './last-words.ts';
import { withRecord } from './outcome.ts';
import type { HazardRunner } from './types.ts';

/**
 * A run meets a fault the world injects for it alone, with one worker; the ledger says how often
 * the failing call was attempted, the runtime where the run ended (and its dead letter, if any).
 * A run that is still retrying once it has tried more often than any hardened cap allows is
 * watched no longer: that is the verdict, and an operator would abandon it.
 */
interface RetryCase {
  fault: Omit<FaultRuleInput, 'runId'>;
  /** The calls the fault hits, in the ledger. */
  hits: (e: LedgerEntry) => boolean;
  /** Attempts after which a run that still runs is judged to retry without end. */
  watchUntilAttempts: number;
  permanent: boolean;
}

const CASES: Record<'retry-transient' | 'retry-exhausted' | 'retry-permanent', RetryCase> = {
  'retry-transient': {
    fault: { route: 'tracker', kind: '503', times: 2 },
    hits: (e) => e.kind === 'tracker',
    watchUntilAttempts: Number.POSITIVE_INFINITY,
    permanent: false,
  },
  'retry-exhausted': {
    fault: { route: 'web', kind: '503', times: 'forever' },
    hits: (e) => e.kind === 'web',
    watchUntilAttempts: 5,
    permanent: false,
  },
  'retry-permanent': {
    fault: { route: 'tracker', kind: '422', times: 'forever' },
    hits: (e) => e.kind === 'tracker',
    watchUntilAttempts: 3,
    permanent: true,
  },
};

/** An error as a figure: its kind and status, without the URL and the body that follow. */
function brief(error: string): string {
  return error
    .replace(/\s+(GET|POST) https?:\/\/\S+/g, '')
    .replace(/: \{.*$/, '')
    .slice(0, 80);
}

export const retryHazard: HazardRunner = async (env, scenario) => {
  const c = CASES[scenario.hazard as keyof typeof CASES];
  const { adapter } = env;
  const world = worldClient(env.worldUrl);
  // One requirement: the fault meets its step as soon as the review gets there.
  const handle = await adapter.startRun(
    oneRequirement(env.request),
    { variant: scenario.variant, durability: null },
    {
      runId: newRunId(`${scenario.runtime.slice(0, 2)}-${scenario.hazard}`),
    },
  );
  await world.addFault({ ...c.fault, runId: handle.runId });
  const attempts = async () => (await world.ledger({ runId: handle.runId })).filter(c.hits).length;
  const started = Date.now();
  const worker = new WorkerProcess('A', adapter.workerSpec(handle, { name: 'A', crashPlan: null }));
  let end;
  try {
    end = await followRun({
      adapter,
      handle,
      workers: () => [worker],
      boundMs: env.boundMs,
      stopWhen: async () => (await attempts()) >= c.watchUntilAttempts,
    });
  } finally {
    // Only a run still retrying is given up; one that just ended may still have its worker on the way out.
    if (end && (end.end === 'stopped' || end.end === 'timeout'))
      await adapter.abandon?.(handle, 'retrying without end').catch(() => undefined);
    await worker.stop(10_000);
  }
  const view = await adapter.inspect(handle).catch(() => end.view);
  const ledger = await world.ledger({ runId: handle.runId });
  const failure = view?.state?.failure ?? null;
  const n = ledger.filter(c.hits).length;
  const verdict =
    end.end === 'stopped' || end.end === 'timeout'
      ? c.permanent
        ? 'retried-permanent'
        : 'looks-stuck'
      : view?.status === 'completed'
        ? 'recovered'
        : failure
          ? 'dead-lettered'
          : view?.status === 'failed'
            ? 'failed-at-once'
            : 'worker-died';
  const outcome = await withRecord(adapter, handle, {
    verdict,
    ledger,
    figures: {
      attempts: n,
      [verdict === 'looks-stuck' || verdict === 'retried-permanent' ? 'seconds watched' : 'seconds to the end']:
        Math.round((end.at - started) / 100) / 10,
      'final status':
        end.end === 'stopped' || end.end === 'timeout' ? 'running (abandoned)' : (view?.status ?? 'unknown'),
      'dead letter': failure ? `${failure.step} after ${failure.attempts} attempt(s), ${brief(failure.error)}` : null,
      ...(view?.status === 'failed' && !failure ? { error: brief(view.reason ?? 'unknown') } : {}),
      ...(verdict === 'worker-died' ? { 'the worker': howItDied(worker) } : {}),
    },
  });
  return outcome;
};
