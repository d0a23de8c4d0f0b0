import { newRunId, isTerminal } from '@vendor-review/pipeline';
import { oneRequirement } from '../request.ts';
import { WorkerProcess } from '@vendor-review/testbed';
import { worldClient } from '@vendor-review/world';
import { executed } from '../evidence.ts';
import { followRun } from '../follow.ts';
import { clip, endingOf, POLICIES, stopAll, supervise } from './supervisor.ts';
import { withRecord } from './outcome.ts';
import { HazardSkipped, type HazardRunner } from './types.ts';

/**
 * Memory is not storage. A run whose state lives in memory only (the runtime's drill sets that up:
 * LangGraph's MemorySaver in the worker, a Temporal dev server without a database file) runs until
 * its first tracker note is stored; then what holds the memory is killed, and a supervisor does
 * what it does after any crash: it starts a worker for the run. The run must be reported lost,
 * with the reason, and must not quietly start over.
 */
export const memoryHazard: HazardRunner = async (env, scenario) => {
  const drill = env.adapter.drills?.memory;
  if (!drill) throw new HazardSkipped(`${env.adapter.title} has no way to keep a run in memory only`);
  if (scenario.variant === 'hardened')
    throw new HazardSkipped(
      'the hardened variant never keeps a run in memory (its checkpoints are in PostgreSQL, its server has a database file): memory is the tutorial setup of the naive row',
    );
  const world = worldClient(env.worldUrl);
  const volatile = await drill.open();
  try {
    const { adapter } = volatile;
    const handle = await adapter.startRun(
      oneRequirement(env.request),
      { variant: scenario.variant, durability: null },
      { runId: newRunId(`${scenario.runtime.slice(0, 2)}-memory`) },
    );
    const a = new WorkerProcess('A', adapter.workerSpec(handle, { name: 'A', crashPlan: null }));
    const noted = async () => (await world.ledger({ runId: handle.runId })).some((e) => e.kind === 'tracker');
    const mid = await followRun({ adapter, handle, workers: () => [a], boundMs: env.boundMs, stopWhen: noted });
    if (mid.end !== 'stopped') {
      await a.kill();
      throw new Error(
        `the run never got to its first tracker note (${mid.end}); worker A: ${a.life.logTail.slice(-300)}`,
      );
    }
    const killed = await volatile.lose(a);
    // What worker A did, up to its end or the server's; what any other worker does from here is a repeat.
    const before = await world.ledger({ runId: handle.runId });
    const lastSeq = Math.max(0, ...before.map((e) => e.seq));
    const lostAt = Date.now();
    const run = await supervise({
      adapter,
      handle,
      ...(a.alive ? { first: a } : {}),
      spec: (name) => adapter.workerSpec(handle, { name, crashPlan: null }),
      policy: POLICIES.hazard(0),
      boundMs: env.boundMs,
    });
    const after = run.workers.filter((w) => w !== a);
    await stopAll([a, ...run.workers]);
    const view = await adapter.inspect(handle).catch(() => run.end.view);
    const refusal =
      view?.status === 'not-found' && view.reason
        ? { where: 'the runtime, asked for the run', error: view.reason, kind: 'gone' }
        : ((await (adapter.drills ?? env.adapter.drills)?.explain(handle, after.map(endingOf))) ?? null);
    if (view && !isTerminal(view.status) && view.status !== 'not-found')
      await adapter.abandon?.(handle, 'the memory drill is over').catch(() => {});
    const ledger = await world.ledger({ runId: handle.runId });
    const again = executed(ledger).filter((e) => e.seq > lastSeq && e.worker !== 'A');
    const repeated = again.filter((e) => before.some((b) => b.opKey === e.opKey)).length;
    const verdict =
      view?.status === 'completed' || again.length > 0
        ? repeated > 0
          ? 'restarted-silently'
          : 'survived'
        : refusal
          ? 'lost-and-said-so'
          : 'lost-silently';
    const outcome = await withRecord(adapter, handle, {
      verdict,
      ledger,
      figures: {
        'the run lived in': drill.holder,
        killed,
        'calls before': before.length,
        'calls after': again.length,
        'status after': view?.status ?? 'unknown',
        ...(refusal ? { where: refusal.where, 'in its words': clip(refusal.error) } : {}),
        'seconds to the answer': Math.round((run.end.at - lostAt) / 100) / 10,
      },
    });
    return outcome;
  } finally {
    await volatile.close();
  }
};
