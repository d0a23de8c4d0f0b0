import { sleep } from '@vendor-review/worker-io';
import { newRunId, isTerminal } from '@vendor-review/pipeline';
import { type HazardId } from '../catalogue/hazards.ts';
import { type DurableMark, type DurableRecord, type InFlightTask, type RunHandle } from '../adapter.ts';
import { worldClient, type LedgerEntry } from '@vendor-review/world';
import { mailDelivered } from '../delivery.ts';
import { countBy, executed } from '../evidence.ts';
import { Crew } from './crew.ts';
import { APPROVER, followRun, type Followed } from '../follow.ts';
import { stepwiseConfig } from './run-config.ts';
import type { Figure, HazardEnv, HazardRunner } from './types.ts';
import type { CrashLine } from '@vendor-review/instrument';
import type { WorkerProcess, WorkerSpec } from '@vendor-review/testbed';

export const ZOMBIE = 'A';
export const TAKEOVER = 'B';
/**
 * How long the zombie stays frozen at most: a paused VM or a long GC wakes on its own clock, not
 * when a harness sees fit. Four times the longest takeover the runtimes' own timeouts allow here
 * (LangGraph's 3 s lease; Temporal's 2 s heartbeat timeout plus its 1 s sticky queue), plus a
 * replacement worker's start, so a runtime that can take over has done so before the zombie wakes.
 * It wakes earlier only once the takeover has finished the run and its mail is out: from then on
 * nothing is left to hand to anyone, and the zombie wakes to the same finished run it would later.
 */
export const ZOMBIE_PAUSE_MS = 12_000;

export type ZombieVerdict =
  | 'fenced-by-runtime'
  | 'fenced-by-lease'
  | 'late-write-accepted'
  | 'refused-but-repeated'
  | 'repeated-the-takeover'
  | 'died-on-waking'
  | 'not-fenced'
  | 'not-replaced'
  | 'duplicated-effects';

/** Where the zombie freezes: in the paid model call, or in the mail's send (the effect has happened, the step is not durable). */
export type ZombiePlace = 'model' | 'mail';
export const FREEZE_AT: Record<ZombiePlace, { plan: string; kind: LedgerEntry['kind'] }> = {
  model: { plan: 'mid-model:stop', kind: 'model' },
  mail: { plan: 'after-deliver:stop', kind: 'mail' },
};
const PLACE_OF: Partial<Record<HazardId, ZombiePlace>> = { zombie: 'model', 'zombie-at-effect': 'mail' };

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

/** A task the runtime's in-flight records showed after the freeze, and whether the zombie still slept then. */
export interface SeenTask {
  task: InFlightTask;
  asleep: boolean;
}

/**
 * The frozen worker's task as the runtime's own records passed it on: a task it held at the freeze
 * (or one the records name no holder of: only it worked the run then) seen again, before the run
 * ended, for the same step under a higher attempt or token, while it slept where any look saw that.
 * Its `fence` says whose token that is.
 */
export function passedOn(o: {
  atFreeze: readonly InFlightTask[];
  later: readonly SeenTask[];
  zombie: string;
}): { from: InFlightTask; to: InFlightTask; asleep: boolean } | null {
  const held = o.atFreeze.filter((t) => t.worker === o.zombie || t.worker === null);
  // While it slept, where any look saw it so: the looks come from more than one record, in no common order.
  const seen = [...o.later.filter((t) => t.asleep), ...o.later.filter((t) => !t.asleep)];
  for (const { task: to, asleep } of seen) {
    const from = held.find((f) => f.step === to.step && to.attempt > f.attempt);
    if (from) return { from, to, asleep };
  }
  return null;
}

/**
 * Our lease's tokens as the durable record keeps them: each checkpoint carries the fencing token its
 * writer held. A lease is released when its run ends, so a takeover that claimed it, finished the
 * run and let go between two looks at the in-flight records leaves its token only here; and a
 * look at the lease itself can come too late to show the token a worker held when it froze, while
 * its own checkpoints still do.
 */
export function leaseTokensIn(marks: readonly DurableMark[]): InFlightTask[] {
  return marks.flatMap((m) =>
    typeof m.fencingToken === 'number'
      ? [{ step: null, attempt: m.fencingToken, worker: m.writer ?? null, fence: 'lease' as const }]
      : [],
  );
}

/** Tasks seen by a look, asleep or not. */
export function seen(tasks: readonly InFlightTask[], asleep: boolean): SeenTask[] {
  return tasks.map((task) => ({ task, asleep }));
}

const FENCE_WORDS: Record<InFlightTask['fence'], string> = {
  runtime: 'the runtime',
  lease: 'our lease’s fencing token',
};

/**
 * The judgement, from the world's ledger and the durable records alone: who stopped the zombie
 * once it woke (a fence is named only where the runtime's records passed its task on while it
 * slept), the writes accepted from it, and what it did to the outside world from then on.
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
  /** Attempts the runtime handed to the zombie while it was frozen (`step#attempt`, as adapter.inFlight said). */
  handedToZombie: readonly string[];
  /** The runtime's in-flight records (adapter.inFlight) when the zombie froze, and every task they showed after, until the run ended. */
  inFlightAtFreeze?: readonly InFlightTask[];
  inFlightLater?: readonly SeenTask[];
  /** The zombie's process ended by itself with a failure code once woken (a frozen process cannot exit). */
  zombieDied?: boolean;
  /** How long it was frozen. */
  pauseMs: number;
  /** Where it froze; `mail`: the verdict weighs the copies the customer holds. */
  place?: ZombiePlace;
  /** Mails the customer's mailbox holds for the run (the world's store). */
  mailsReceived?: number;
  zombieExit: string;
}): {
  verdict: ZombieVerdict;
  figures: Record<string, Figure>;
} {
  const ran = executed(o.ledger);
  const takeoverOps = new Set(ran.filter((e) => e.worker === o.takeover).map((e) => e.opKey));
  const awake = ran.filter((e) => e.worker === o.zombie && e.seq > o.seqAtWake);
  const repeating = awake.filter((e) => takeoverOps.has(e.opKey));
  const effects = countBy(ran.filter(isEffect), (e) => e.opKey);
  const late = lateWrites(o).length;
  // A replay the receiver collapsed by its key is still the takeover retaking the step.
  const retaken = o.ledger.find(
    (e) => e.worker === o.takeover && e.opKey === o.frozenOpKey && (e.outcome === 'ok' || e.outcome === 'deduplicated'),
  );
  const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  const passed = passedOn({ atFreeze: o.inFlightAtFreeze ?? [], later: o.inFlightLater ?? [], zombie: o.zombie });
  const stoppedBy = late > 0 ? null : (passed?.to.fence ?? null);
  // The takeover did something for the run at all: a call to the world, or a mark the record names it for.
  const replaced =
    ran.some((e) => e.worker === o.takeover) || (o.after?.marks ?? []).some((m) => m.writer === o.takeover);
  const verdict: ZombieVerdict =
    late > 0
      ? 'late-write-accepted'
      : o.place === 'mail' && (o.mailsReceived ?? 0) > 1
        ? 'duplicated-effects'
        : repeating.some(isEffect)
          ? stoppedBy
            ? 'refused-but-repeated'
            : 'repeated-the-takeover'
          : stoppedBy
            ? `fenced-by-${stoppedBy}`
            : !replaced
              ? 'not-replaced'
              : o.zombieDied
                ? 'died-on-waking'
                : 'not-fenced';
  const taskName = (t: InFlightTask) => (t.step ? `${t.step} attempt` : t.fence === 'lease' ? 'token' : 'claim');
  return {
    verdict,
    figures: {
      'stopped by':
        late > 0
          ? 'nobody: its writes were accepted'
          : passed
            ? `${FENCE_WORDS[passed.to.fence]} (${taskName(passed.to)} ${passed.from.attempt} → ${passed.to.attempt} ${passed.asleep ? 'while it slept' : 'after it woke'})`
            : 'nobody: no record passed its task on',
      'frozen for': secs(o.pauseMs),
      takeover:
        retaken && retaken.at - o.frozenAt <= o.pauseMs
          ? `${o.takeover} after ${secs(retaken.at - o.frozenAt)}`
          : retaken
            ? `only after ${o.zombie} woke (${o.takeover} at ${secs(retaken.at - o.frozenAt)})`
            : 'none',
      'attempts handed to the frozen worker': o.handedToZombie.length,
      ...(o.mailsReceived !== undefined ? { 'mails the customer received': o.mailsReceived } : {}),
      'woken worker’s results': late > 0 ? `accepted (${late} writes)` : `none accepted (${o.zombieExit})`,
      'late writes accepted': late,
      'zombie calls after waking': awake.length,
      'of them repeating the takeover': repeating.length,
      'effects delivered twice': [...effects.values()].filter((n) => n > 1).length,
      [o.place === 'mail' ? 'frozen send made' : 'frozen call paid']:
        `${ran.filter((e) => e.opKey === o.frozenOpKey).length}×`,
      'zombie exit': o.zombieExit,
    },
  };
}

/**
 * Starts worker A (from `spec`, else the runtime's own) with the plan that freezes it (SIGSTOP) at
 * `place`, and waits until it has: its call there in the world's ledger, and its stop.
 */
export async function freezeWorker(o: {
  env: HazardEnv;
  handle: RunHandle;
  crew: Crew;
  place: ZombiePlace;
  spec?: WorkerSpec;
}): Promise<{ a: WorkerProcess; frozen: LedgerEntry; stop: CrashLine }> {
  const { env, handle, crew, place } = o;
  const a = crew.start(ZOMBIE, FREEZE_AT[place].plan, ...(o.spec ? [o.spec] : []));
  let frozenCall: LedgerEntry | undefined;
  const froze = await followRun({
    adapter: env.adapter,
    handle,
    workers: () => [a],
    boundMs: env.boundMs,
    stopWhen: async () =>
      a.stops.length > 0 &&
      !!(frozenCall = (await worldClient(env.worldUrl).ledger({ runId: handle.runId }))
        .filter((e) => e.worker === ZOMBIE && e.kind === FREEZE_AT[place].kind)
        .at(-1)),
  });
  if (froze.end !== 'stopped' || !frozenCall)
    throw new Error(`worker ${ZOMBIE} never froze at its ${place} (${froze.end}): ${a.output().slice(-300)}`);
  return { a, frozen: frozenCall, stop: await a.waitForStop(1, env.boundMs) };
}

/**
 * Wakes the frozen worker (SIGCONT) and follows the run until it has ended and every worker of the
 * crew with it, calling `onPoll` at each look; the ledger's last seq when it was woken: the entries
 * after it are what it did awake.
 */
export async function wakeAndFollow(o: {
  env: HazardEnv;
  handle: RunHandle;
  crew: Crew;
  a: WorkerProcess;
  onPoll: () => Promise<void>;
}): Promise<{ seqAtWake: number; end: Followed }> {
  const ledger = await worldClient(o.env.worldUrl).ledger({ runId: o.handle.runId });
  const seqAtWake = Math.max(0, ...ledger.map((e) => e.seq));
  o.a.signal('SIGCONT');
  const end = await followRun({
    adapter: o.env.adapter,
    handle: o.handle,
    workers: () => o.crew.all,
    boundMs: o.env.boundMs,
    pollMs: 100,
    stopWhen: async () => (await o.onPoll(), false),
  });
  return { seqAtWake, end };
}

/**
 * Worker A freezes (SIGSTOP) with its model call in flight, or right after its mail's send (the
 * effect happened, the step is not durable), and stays frozen for ZOMBIE_PAUSE_MS, however the
 * runtime sees it; worker B stands by from the moment A froze (restarted, as a supervisor would,
 * while the run is leased to A). While A sleeps, the runtime's in-flight records are read
 * (adapter.inFlight): whether they pass A's task on to a newer attempt or token, and which attempts
 * they hand back to A; then A is woken (SIGCONT), both go on, and the records say who stopped A,
 * whether anything A wrote from its stale position was accepted and how many copies of the mail
 * the customer holds.
 */
export const zombieHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const place = PLACE_OF[scenario.hazard] ?? 'model';
  const world = worldClient(env.worldUrl);
  const handle = await adapter.startRun(env.request, stepwiseConfig(adapter, scenario.variant), {
    runId: newRunId(`${scenario.runtime.slice(0, 2)}-zombie${place === 'mail' ? '-mail' : ''}`),
  });
  const runId = handle.runId;
  const crew = new Crew(adapter, handle);
  try {
    // Approved up front: nobody has to be there for the gate while workers freeze and take over.
    await adapter.approve(handle, { approved: true, by: APPROVER });
    const { a, frozen, stop } = await freezeWorker({ env, handle, crew, place });
    const task = (t: InFlightTask) => `${t.step ?? 'run'}#${t.attempt}`;
    const inFlight = async () => (await adapter.inFlight?.(handle).catch(() => [])) ?? [];
    const atFreeze = await inFlight();
    const heldWhenFrozen = new Set(atFreeze.filter((t) => t.worker === ZOMBIE).map(task));
    const later: SeenTask[] = [];

    crew.start(TAKEOVER, null);
    const handed = new Set<string>();
    const wakeAt = stop.at + ZOMBIE_PAUSE_MS;
    const takenOverAndDone = async () => {
      const view = await adapter.status(handle).catch(() => null);
      if (!view || !isTerminal(view.status)) return false;
      return mailDelivered(world, runId, view);
    };
    while (Date.now() < wakeAt) {
      crew.restartIfRefused(TAKEOVER);
      for (const t of await inFlight()) {
        later.push({ task: t, asleep: true });
        if (t.worker === ZOMBIE && !heldWhenFrozen.has(task(t))) handed.add(task(t));
      }
      if (await takenOverAndDone()) break;
      await sleep(Math.min(200, Math.max(0, wakeAt - Date.now())));
    }
    const pauseMs = Date.now() - stop.at;

    const before = await adapter.durableRecord(handle);
    // A claim the records make once it is awake refuses its writes as well as one made while it slept.
    const { seqAtWake, end } = await wakeAndFollow({
      env,
      handle,
      crew,
      a,
      onPoll: async () => {
        crew.restartIfRefused(TAKEOVER);
        for (const t of await inFlight()) later.push({ task: t, asleep: false });
      },
    });
    await crew.finish(env.boundMs);
    const view = await adapter.inspect(handle).catch(() => end.view);
    if (view?.status !== 'completed')
      throw new Error(
        `the run did not complete (${end.end}, status ${view?.status ?? 'unknown'}): ${crew.get(TAKEOVER).life.logTail.slice(-300)}`,
      );

    const ledger = await world.ledger({ runId });
    const durable = await adapter.durableRecord(handle);
    const beforeIds = new Set((before?.marks ?? []).map((m) => m.id));
    const writtenAwake = (durable?.marks ?? []).filter((m) => !beforeIds.has(m.id));
    const mailsReceived = (await world.outbox(runId)).length;
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
      handedToZombie: [...handed],
      // Whatever it wrote before it was woken, it wrote before it froze.
      inFlightAtFreeze: [...atFreeze, ...leaseTokensIn((before?.marks ?? []).filter((m) => m.writer === ZOMBIE))],
      inFlightLater: [
        ...later,
        ...seen(leaseTokensIn(before?.marks ?? []), true),
        ...seen(before?.claims ?? [], true),
        ...seen(leaseTokensIn(writtenAwake), false),
        ...seen(durable?.claims ?? [], false),
      ],
      zombieDied: a.life.exitCode !== null && a.life.exitCode !== 0,
      pauseMs,
      place,
      mailsReceived,
      zombieExit: adapter.workerExitsWhenDone ? exit : `${exit}, stopped after the run (it serves until told)`,
    });
    const figures = { ...judged.figures, ...(handle.durability ? { durability: handle.durability } : {}) };
    return { verdict: judged.verdict, figures, runId, ledger, durable };
  } finally {
    await crew.kill();
  }
};
