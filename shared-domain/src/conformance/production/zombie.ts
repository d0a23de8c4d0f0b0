import { newRunId } from '../../domain/identity.ts';
import type { DurableMark, DurableRecord } from '../../domain/runtime.ts';
import { worldClient } from '../../world/client.ts';
import type { LedgerEntry } from '../../world/ledger.ts';
import { executed } from '../evidence.ts';
import { Crew } from './crew.ts';
import { followRun } from './follow.ts';
import { stepwiseConfig } from './run-config.ts';
import type { Figure, HazardRunner } from './types.ts';

export const ZOMBIE = 'A';
export const TAKEOVER = 'B';
/**
 * How long the world holds the takeover worker's answer to the call the zombie froze in: the zombie
 * is woken while the takeover is in the middle of that very step (its attempt, its lease), which is
 * the moment a stale write is most likely to slip in. A property of the world, not a harness wait.
 */
export const TAKEOVER_CALL_DELAY_MS = 1500;

function isEffect(e: LedgerEntry): boolean {
  return (e.kind === 'mail' || e.kind === 'tracker') && e.outcome === 'ok';
}

/**
 * A write accepted from the zombie's stale position. A checkpoint says nothing of who should have
 * written it: a worker never re-reads the thread, so whatever it checkpoints after waking continues
 * the state it froze with. A closed task names its start (parentId): a close written by the zombie
 * for an attempt the runtime had handed to another worker is a stale completion accepted; a task
 * the runtime handed to the zombie after it woke is ordinary work.
 */
export function lateWrites(o: {
  before: DurableRecord | null;
  after: DurableRecord | null;
  zombie: string;
}): DurableMark[] {
  const known = new Set((o.before?.marks ?? []).map((m) => m.id));
  const byId = new Map((o.after?.marks ?? []).map((m) => [m.id, m]));
  return (o.after?.marks ?? []).filter((m) => {
    if (m.writer !== o.zombie || known.has(m.id)) return false;
    if (m.kind === 'checkpoint') return true;
    const start = m.parentId ? byId.get(m.parentId) : undefined;
    return m.kind === 'event' && !!start && start.writer !== o.zombie;
  });
}

/**
 * The judgement, from the world's ledger and the durable records alone: the writes accepted from
 * the zombie after it woke, and what it did to the outside world from then on.
 */
export function judgeZombie(o: {
  ledger: readonly LedgerEntry[];
  /** The durable record read just before the zombie was woken, and at the end. */
  before: DurableRecord | null;
  after: DurableRecord | null;
  zombie: string;
  takeover: string;
  /** The ledger's last seq when the zombie was woken: its later entries are what it did awake. */
  seqAtWake: number;
  /** The operation the zombie froze in (its model call in flight). */
  frozenOpKey: string;
  frozenAt: number;
  /** The attempt of the frozen step the runtime handed back to the zombie while it was frozen, if it did. */
  handedBack: number | null;
  zombieExit: string;
}): { verdict: 'fenced' | 'late-write-accepted' | 'refused-but-repeated'; figures: Record<string, Figure> } {
  const ran = executed(o.ledger);
  const takeoverOps = new Set(ran.filter((e) => e.worker === o.takeover).map((e) => e.opKey));
  const awake = ran.filter((e) => e.worker === o.zombie && e.seq > o.seqAtWake);
  const repeating = awake.filter((e) => takeoverOps.has(e.opKey));
  const effects = new Map<string, number>();
  for (const e of ran.filter(isEffect)) effects.set(e.opKey, (effects.get(e.opKey) ?? 0) + 1);
  const late = lateWrites(o).length;
  const retaken = ran.find((e) => e.worker === o.takeover && e.opKey === o.frozenOpKey);
  const verdict = late > 0 ? 'late-write-accepted' : repeating.some(isEffect) ? 'refused-but-repeated' : 'fenced';
  return {
    verdict,
    figures: {
      takeover: retaken
        ? `${o.takeover} after ${Math.round((retaken.at - o.frozenAt) / 100) / 10} s`
        : o.handedBack !== null
          ? `none: attempt ${o.handedBack} was handed to ${o.zombie}, frozen`
          : 'none',
      'late writes accepted': late,
      'zombie calls after waking': awake.length,
      'of them repeating the takeover': repeating.length,
      'effects delivered twice': [...effects.values()].filter((n) => n > 1).length,
      'frozen call paid': `${ran.filter((e) => e.opKey === o.frozenOpKey).length}×`,
      'zombie exit': o.zombieExit,
    },
  };
}

/**
 * Worker A freezes (SIGSTOP) with a model call in flight and stays frozen past its lease or its
 * heartbeat timeout, while worker B stands by (restarted, as a supervisor would, while the run is
 * leased to A). A is woken (SIGCONT) once B's own call for that step has reached the world, or once
 * the runtime has handed the step's next attempt to A itself (then nobody takes over while A
 * sleeps); both go on, and the records say whether anything A wrote from its stale position was
 * accepted.
 */
export const zombieHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const world = worldClient(env.worldUrl);
  const handle = await adapter.startRun(env.request, stepwiseConfig(adapter, scenario.variant), {
    runId: newRunId(`${scenario.runtime.slice(0, 2)}-zombie`),
  });
  const runId = handle.runId;
  const crew = new Crew(adapter, handle);
  try {
    const a = crew.start(ZOMBIE, 'mid-model:stop');
    let frozenCall: LedgerEntry | undefined;
    const froze = await followRun({
      adapter,
      handle,
      workers: () => [a],
      boundMs: env.boundMs,
      stopWhen: async () =>
        a.stops.length > 0 &&
        !!(frozenCall = (await world.ledger({ runId }))
          .filter((e) => e.worker === ZOMBIE && e.kind === 'model')
          .at(-1)),
    });
    if (froze.end !== 'stopped' || !frozenCall)
      throw new Error(`worker ${ZOMBIE} never froze in a model call (${froze.end}): ${a.output().slice(-300)}`);
    const frozen: LedgerEntry = frozenCall;
    const stop = await a.waitForStop(1, env.boundMs);

    // The next model call of this run is B's retake of that step: the world holds its answer.
    const slow = await world.addFault({ route: 'model', kind: 'slow', delayMs: TAKEOVER_CALL_DELAY_MS, runId });
    crew.start(TAKEOVER, null);
    // Wake A once B's retake has reached the world, or once the runtime has handed the step's next
    // attempt to A itself, frozen as it is (then no takeover comes while A sleeps: see hazards.ts).
    let handedBack: number | null = null;
    const tookOver = await followRun({
      adapter,
      handle,
      workers: () => crew.all,
      boundMs: env.boundMs,
      pollMs: 100,
      stopWhen: async () => {
        crew.restartIfRefused(TAKEOVER);
        if (!(await world.faults()).some((f) => f.id === slow.id)) return true;
        const back = (await adapter.inFlight?.(handle))?.find(
          (t) => t.step === frozen.step && t.worker === ZOMBIE && t.attempt > (frozen.attempt ?? 1),
        );
        handedBack = back?.attempt ?? null;
        return handedBack !== null;
      },
    });
    if (tookOver.end !== 'stopped')
      throw new Error(
        `worker ${TAKEOVER} never took over (${tookOver.end}): ${crew.get(TAKEOVER).life.logTail.slice(-300)}`,
      );
    if (handedBack !== null) await world.removeFault(slow.id);

    const before = await adapter.durableRecord(handle);
    const seqAtWake = Math.max(0, ...(await world.ledger({ runId })).map((e) => e.seq));
    a.signal('SIGCONT');
    const end = await followRun({ adapter, handle, workers: () => crew.all, boundMs: env.boundMs, pollMs: 100 });
    await crew.finish(env.boundMs);
    const view = await adapter.inspect(handle).catch(() => end.view);
    if (view?.status !== 'completed')
      throw new Error(
        `the run did not complete under ${TAKEOVER} (${end.end}, status ${view?.status ?? 'unknown'}): ${crew.get(TAKEOVER).life.logTail.slice(-300)}`,
      );

    const ledger = await world.ledger({ runId });
    const durable = await adapter.durableRecord(handle);
    const exit = a.life.exitCode !== null ? `code ${a.life.exitCode}` : `signal ${a.life.signal}`;
    const judged = judgeZombie({
      ledger,
      before,
      after: durable,
      zombie: ZOMBIE,
      takeover: TAKEOVER,
      seqAtWake,
      frozenOpKey: frozen.opKey,
      frozenAt: stop.at,
      handedBack,
      zombieExit: adapter.workerExitsWhenDone ? exit : `${exit}, stopped after the run (it serves until told)`,
    });
    const figures = { ...judged.figures, ...(handle.durability ? { durability: handle.durability } : {}) };
    return { verdict: judged.verdict, figures, runId, ledger, durable };
  } finally {
    await crew.kill();
  }
};
