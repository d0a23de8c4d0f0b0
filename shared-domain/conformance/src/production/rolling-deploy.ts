import { sleep } from '@vendor-review/worker-io';
import { newRunId, isTerminal } from '@vendor-review/pipeline';
import { STOP_GRACE_MS } from '@vendor-review/instrument';
import { type RunHandle } from '../adapter.ts';
import { worldClient, type LedgerEntry, vendorRequest } from '@vendor-review/world';
import { executed } from '../evidence.ts';
import { CELL_VENDOR } from '../request.ts';
import { Crew } from './crew.ts';
import { APPROVER, followRun } from '../follow.ts';
import { stepwiseConfig } from './run-config.ts';
import { reportWorkerGone } from './supervisor.ts';
import type { Figure, HazardRunner } from './types.ts';

/** Reviews in flight while their workers are replaced, one after the other. */
export const DEPLOY_RUNS = 2;
/**
 * How long the world takes over every model call of the drill's runs: each worker is asked to stop
 * right after one of its calls began, so the stop always lands in a paid call that a drain can
 * finish well inside the grace (and the reviews, six requirements each, are still researching when
 * their turn comes).
 */
export const DEPLOY_CALL_MS = 1500;
const OLD = 'A';
const NEW = 'B';
const secs = (ms: number) => Math.round(ms / 100) / 10;

interface Turn {
  /** The stop landed just after a model call of the run began (else: the run had no call left). */
  midCall: boolean;
  left: 'exited' | 'signal' | 'killed';
  leftAfterMs: number;
  /** SIGTERM → the new worker's first call for the run (its arrival at the world); null: the run had ended. */
  waitedMs: number | null;
}

/** What a rolling deploy cost, from the world's ledger alone: paid calls run twice, effects delivered twice. */
export function judgeDeploy(o: { ledger: readonly LedgerEntry[]; completed: number; runs: number }): {
  verdict: 'seamless' | 'repeated-paid-calls' | 'duplicated-effects' | 'lost-the-run';
  paidRepeated: number;
  effectsTwice: number;
} {
  const counts = new Map<string, { kind: string; n: number }>();
  for (const e of executed(o.ledger)) {
    const k = `${e.runId}|${e.opKey}`;
    const c = counts.get(k) ?? { kind: e.kind, n: 0 };
    if (e.kind === 'model' || e.outcome === 'ok') c.n++;
    counts.set(k, c);
  }
  let paidRepeated = 0;
  let effectsTwice = 0;
  for (const c of counts.values()) {
    if (c.kind === 'model') paidRepeated += Math.max(0, c.n - 1);
    if ((c.kind === 'mail' || c.kind === 'tracker') && c.n > 1) effectsTwice++;
  }
  const verdict =
    o.completed < o.runs
      ? 'lost-the-run'
      : effectsTwice > 0
        ? 'duplicated-effects'
        : paidRepeated > 0
          ? 'repeated-paid-calls'
          : 'seamless';
  return { verdict, paidRepeated, effectsTwice };
}

/**
 * A rolling deploy: DEPLOY_RUNS reviews in flight, each on its own worker process (the worker the
 * adapter gives its run); the workers are replaced one at a time as an orchestrator does it:
 * SIGTERM right after the worker's next model call began, STOP_GRACE_MS to leave, SIGKILL if it
 * has not, a new process, and the next worker only once the new one has made its first call.
 */
export const rollingDeployHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const world = worldClient(env.worldUrl);
  const request = vendorRequest(CELL_VENDOR, env.worldUrl);
  const config = stepwiseConfig(adapter, scenario.variant);
  const runs: { handle: RunHandle; crew: Crew; fault: string }[] = [];
  try {
    for (let i = 0; i < DEPLOY_RUNS; i++) {
      const handle = await adapter.startRun(request, config, {
        runId: newRunId(`${scenario.runtime.slice(0, 2)}-deploy`),
      });
      await adapter.approve(handle, { approved: true, by: APPROVER });
      const fault = await world.addFault({
        route: 'model',
        kind: 'slow',
        delayMs: DEPLOY_CALL_MS,
        times: 'forever',
        runId: handle.runId,
      });
      const crew = new Crew(adapter, handle);
      crew.start(OLD, null);
      runs.push({ handle, crew, fault: fault.id });
    }
    const calls = async (fault: string) => (await world.faults()).find((f) => f.id === fault)?.fired ?? 0;
    const until = async (what: () => Promise<boolean>, boundMs: number) => {
      const deadline = Date.now() + boundMs;
      while (!(await what()) && Date.now() < deadline) await sleep(50);
      return Date.now() < deadline;
    };
    // Every review in flight: each has begun a model call.
    for (const r of runs) await until(async () => (await calls(r.fault)) > 0, env.boundMs);

    const turns: Turn[] = [];
    let firstTerm = 0;
    let lastUp = 0;
    for (const r of runs) {
      const seen = await calls(r.fault);
      const ended = async () => isTerminal((await adapter.status(r.handle).catch(() => null))?.status ?? 'running');
      const midCall = await until(async () => (await calls(r.fault)) > seen || (await ended()), 4 * DEPLOY_CALL_MS);
      const endedBefore = await ended();
      const old = r.crew.get(OLD);
      const termAt = Date.now();
      firstTerm ||= termAt;
      const life = await old.stop(STOP_GRACE_MS);
      await reportWorkerGone(adapter, r.handle, life).catch(() => {});
      r.crew.start(NEW, null);
      let firstCall: LedgerEntry | undefined;
      await until(async () => {
        r.crew.restartIfRefused(NEW);
        firstCall = (await world.ledger({ runId: r.handle.runId })).find((e) => e.worker === NEW);
        return !!firstCall || (await ended());
      }, env.boundMs);
      // The ledger shows a call once answered; the wait ends when the new worker's call arrived.
      lastUp = firstCall?.at ?? Date.now();
      turns.push({
        midCall: midCall && !endedBefore,
        left: life.signal === 'SIGKILL' ? 'killed' : life.signal ? 'signal' : 'exited',
        leftAfterMs: (life.exitedAt ?? termAt) - termAt,
        waitedMs: endedBefore ? null : lastUp - termAt,
      });
    }

    // The deploy is over: the slow calls were there to make each stop land in one. The rest of
    // each review runs at the world's own pace; what repeats is still counted from the ledger.
    for (const r of runs) await world.removeFault(r.fault);
    const ends = await Promise.all(
      runs.map((r) =>
        followRun({
          adapter,
          handle: r.handle,
          workers: () => r.crew.all,
          boundMs: env.boundMs,
          stopWhen: () => {
            r.crew.restartIfRefused(NEW);
            return false;
          },
        }),
      ),
    );
    await Promise.all(runs.map((r) => r.crew.finish(env.boundMs)));
    const completed = ends.filter((e) => e.view?.status === 'completed').length;
    const ledger = (await Promise.all(runs.map((r) => world.ledger({ runId: r.handle.runId })))).flat();
    const judged = judgeDeploy({ ledger, completed, runs: runs.length });
    const figures: Record<string, Figure> = {
      'reviews in flight': runs.length,
      'stops that landed in a paid call': turns.filter((t) => t.midCall).length,
      'paid calls repeated': judged.paidRepeated,
      'effects delivered twice': judged.effectsTwice,
      'workers that left by themselves': turns.filter((t) => t.left !== 'killed').length,
      'left after': turns.map((t) => `${secs(t.leftAfterMs)} s`).join(', '),
      'runs that waited for a worker': turns.filter((t) => t.waitedMs !== null).length,
      'waited (SIGTERM → the new worker’s first call)': turns
        .map((t) => (t.waitedMs === null ? 'ended before its turn' : `${secs(t.waitedMs)} s`))
        .join(', '),
      'the whole deploy took': `${secs(lastUp - firstTerm)} s`,
      completed: `${completed}/${runs.length}`,
      ...(runs[0]!.handle.durability ? { durability: runs[0]!.handle.durability } : {}),
    };
    return { verdict: judged.verdict, figures, runId: runs[0]!.handle.runId, ledger, durable: null };
  } finally {
    for (const r of runs) await world.removeFault(r.fault).catch(() => {});
    await Promise.all(runs.map((r) => r.crew.kill()));
  }
};
