import { sleep } from '@vendor-review/worker-io';
import { newRunId } from '@vendor-review/pipeline';
import { NetworkCut } from '@vendor-review/testbed';
import { worldClient, type LedgerEntry } from '@vendor-review/world';
import type { HazardId } from '../catalogue/hazards.ts';
import type { DurableRecord, InFlightTask } from '../adapter.ts';
import { countBy, executed } from '../evidence.ts';
import { APPROVER, followRun } from '../follow.ts';
import { Crew } from './crew.ts';
import { stepwiseConfig } from './run-config.ts';
import type { Figure, HazardRunner } from './types.ts';
import { lateWrites, leaseTokensIn, passedOn, seen, type SeenTask } from './zombie.ts';

export const CUT_OFF = 'A';
export const TAKEOVER = 'B';

/**
 * How long the worker stays cut off, fixed: past the longest takeover the runtimes' own timeouts
 * allow here (a lease's TTL and the renewal that finds it gone; a heartbeat timeout and a sticky
 * queue's), so the cut-off worker meets its own deadline while still cut off, as it would in a
 * partition that lasts.
 */
export const PARTITION_MS = 8_000;

export type PartitionVerdict =
  | 'lost-the-run'
  | 'duplicated-effects'
  | 'late-write-accepted'
  | 'not-replaced'
  | 'left-while-cut-off'
  | 'collapsed-by-key'
  | 'one-writer';

/** Where the worker is cut off: in the paid model call, or just before the mail is sent. */
export type PartitionPlace = 'model' | 'mail';
const CUT_AT: Record<PartitionPlace, string> = { model: 'mid-model:stop', mail: 'before-deliver:stop' };
const PLACE_OF: Partial<Record<HazardId, PartitionPlace>> = { partition: 'model', 'partition-at-effect': 'mail' };

const isEffect = (e: LedgerEntry) => e.kind === 'mail' || e.kind === 'tracker';
const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** What the cut-off worker asked of the world in a span of the ledger, in words: "1 model, 1 mail (1 deduplicated)". */
function callsIn(entries: readonly LedgerEntry[]): string {
  if (entries.length === 0) return 'none';
  const byKind = new Map<string, { n: number; dedup: number }>();
  for (const e of entries) {
    const k = byKind.get(e.kind) ?? { n: 0, dedup: 0 };
    k.n++;
    if (e.outcome === 'deduplicated') k.dedup++;
    byKind.set(e.kind, k);
  }
  return [...byKind].map(([kind, { n, dedup }]) => `${n} ${kind}${dedup ? ` (${dedup} deduplicated)` : ''}`).join(', ');
}

/**
 * The judgement, from the world's ledger and the durable records alone: what the cut-off worker
 * did while cut off and after, who took the run over and how the records say it was handed on,
 * the writes accepted from the cut-off worker after healing, and what the customer received.
 */
export function judgePartition(o: {
  ledger: readonly LedgerEntry[];
  /** The durable record when the cut began, and at the end. */
  atCut: DurableRecord | null;
  after: DurableRecord | null;
  cutAt: number;
  healedAt: number;
  /** When the cut-off worker's process ended by itself (an exit of its own, not the harness's stop), and how. */
  leftItself: { at: number; exit: string } | null;
  /** The runtime's in-flight records when the cut began, and every task they showed after. */
  inFlightAtCut: readonly InFlightTask[];
  inFlightLater: readonly SeenTask[];
  mailsReceived: number;
  completed: boolean;
  status: string;
}): { verdict: PartitionVerdict; figures: Record<string, Figure> } {
  const ran = executed(o.ledger);
  const byA = ran.filter((e) => e.worker === CUT_OFF);
  const whileCut = byA.filter((e) => e.at >= o.cutAt && e.at < o.healedAt);
  const afterHeal = byA.filter((e) => e.at >= o.healedAt);
  const late = lateWrites({ before: o.atCut, after: o.after, zombie: CUT_OFF }).length;
  const accepted = countBy(
    ran.filter((x) => isEffect(x) && x.outcome === 'ok'),
    (e) => e.opKey,
  );
  const duplicated = [...accepted.values()].filter((n) => n > 1).length;
  const models = countBy(
    ran.filter((x) => x.kind === 'model'),
    (e) => e.opKey,
  );
  const paidAgain = [...models.values()].reduce((sum, n) => sum + n - 1, 0);
  const firstByB = Math.min(
    ...ran.filter((e) => e.worker === TAKEOVER && e.at >= o.cutAt).map((e) => e.at),
    ...(o.after?.marks ?? []).flatMap((m) => (m.writer === TAKEOVER && m.at !== null ? [m.at] : [])),
  );
  const replaced = Number.isFinite(firstByB);
  const passed = passedOn({ atFreeze: o.inFlightAtCut, later: o.inFlightLater, zombie: CUT_OFF });
  const effectByA = [...whileCut, ...afterHeal].some(isEffect);
  const deduplicated = ran.some((e) => isEffect(e) && e.outcome === 'deduplicated');

  const verdict: PartitionVerdict = !o.completed
    ? 'lost-the-run'
    : duplicated > 0 || o.mailsReceived > 1
      ? 'duplicated-effects'
      : late > 0
        ? 'late-write-accepted'
        : !replaced
          ? 'not-replaced'
          : o.leftItself && o.leftItself.at < o.healedAt && !whileCut.some(isEffect)
            ? 'left-while-cut-off'
            : effectByA && deduplicated
              ? 'collapsed-by-key'
              : 'one-writer';
  const handedOn = passed
    ? `${passed.to.fence === 'lease' ? 'our lease’s fencing token' : 'the runtime'} (${passed.to.step ?? 'run'} ${passed.from.attempt} → ${passed.to.attempt}${passed.asleep ? ', while cut off' : ', after healing'})`
    : 'no record handed its work on';
  return {
    verdict,
    figures: {
      'cut off for': secs(o.healedAt - o.cutAt),
      'cut-off worker’s calls while cut off': callsIn(whileCut),
      'its calls after healing': callsIn(afterHeal),
      takeover: replaced ? `${TAKEOVER} after ${secs(firstByB - o.cutAt)}` : 'none',
      'handed on by': handedOn,
      'late writes accepted after healing': late,
      'mails the customer received': o.mailsReceived,
      'effects delivered twice': duplicated,
      'paid calls repeated': paidAgain,
      'cut-off worker’s process ended by itself': o.leftItself
        ? `after ${secs(o.leftItself.at - o.cutAt)}${o.leftItself.at < o.healedAt ? ', while cut off' : ', after healing'} (${o.leftItself.exit})`
        : 'no',
      end: o.status,
    },
  };
}

/**
 * Worker A reaches its store and its runtime's server through a NetworkCut; it freezes (SIGSTOP) in
 * its paid model call, or just before its mail, and there the harness cuts it off and lets it go
 * on: it can still reach the world, not its store. Worker B stands by from that moment, as the
 * rest of a pool would. The cut lasts PARTITION_MS, then heals; both go on, and the ledger and the records say what A did cut off, who took
 * the run over, what of A's was accepted after healing and what the customer received.
 */
export const partitionHazard: HazardRunner = async (env, scenario) => {
  const { adapter } = env;
  const place = PLACE_OF[scenario.hazard] ?? 'model';
  const world = worldClient(env.worldUrl);
  const handle = await adapter.startRun(env.request, stepwiseConfig(adapter, scenario.variant), {
    runId: newRunId(`${scenario.runtime.slice(0, 2)}-cut${place === 'mail' ? '-mail' : ''}`),
  });
  const runId = handle.runId;
  const crew = new Crew(adapter, handle);
  const cut = new NetworkCut();
  try {
    // Approved up front: nobody has to be there for the gate while the network breaks.
    await adapter.approve(handle, { approved: true, by: APPROVER });
    const spec = await cut.route(adapter.workerSpec(handle, { name: CUT_OFF, crashPlan: CUT_AT[place] }), {
      keep: [env.worldUrl],
    });
    const a = crew.start(CUT_OFF, CUT_AT[place], spec);
    const there = await followRun({
      adapter,
      handle,
      workers: () => [a],
      boundMs: env.boundMs,
      stopWhen: () => a.stops.length > 0,
    });
    if (there.end !== 'stopped')
      throw new Error(`worker ${CUT_OFF} never reached its ${place} (${there.end}): ${a.output().slice(-300)}`);
    await a.waitForStop(1, env.boundMs);
    const inFlight = async () => (await adapter.inFlight?.(handle).catch(() => [])) ?? [];
    const inFlightAtCut = await inFlight();
    const atCut = await adapter.durableRecord(handle);
    const later: SeenTask[] = [];

    cut.cut();
    const cutAt = Date.now();
    a.signal('SIGCONT');
    crew.start(TAKEOVER, null);
    const healAt = cutAt + PARTITION_MS;
    while (Date.now() < healAt) {
      crew.restartIfRefused(TAKEOVER);
      for (const t of await inFlight()) later.push({ task: t, asleep: true });
      await sleep(Math.min(200, Math.max(0, healAt - Date.now())));
    }
    cut.heal();
    const healedAt = Date.now();

    const end = await followRun({
      adapter,
      handle,
      workers: () => crew.all,
      boundMs: env.boundMs,
      pollMs: 100,
      stopWhen: async () => {
        crew.restartIfRefused(TAKEOVER);
        for (const t of await inFlight()) later.push({ task: t, asleep: false });
        return false;
      },
    });
    // A worker that leaves once its run is over is given the time to; one that serves until told is not waited for.
    if (adapter.workerExitsWhenDone) await Promise.race([a.exited, sleep(env.boundMs)]);
    const leftItself =
      !a.alive && a.life.exitedAt !== null
        ? {
            at: a.life.exitedAt,
            exit: a.life.exitCode !== null ? `exit code ${a.life.exitCode}` : `signal ${a.life.signal}`,
          }
        : null;
    await crew.finish(env.boundMs);
    const view = await adapter.inspect(handle).catch(() => end.view);
    const ledger = await world.ledger({ runId });
    const durable = await adapter.durableRecord(handle);
    const atCutIds = new Set((atCut?.marks ?? []).map((m) => m.id));
    const judged = judgePartition({
      ledger,
      atCut,
      after: durable,
      cutAt,
      healedAt,
      leftItself,
      inFlightAtCut: [...inFlightAtCut, ...leaseTokensIn((atCut?.marks ?? []).filter((m) => m.writer === CUT_OFF))],
      inFlightLater: [
        ...later,
        ...seen(leaseTokensIn(atCut?.marks ?? []), true),
        ...seen(leaseTokensIn((durable?.marks ?? []).filter((m) => !atCutIds.has(m.id))), true),
        ...seen(durable?.claims ?? [], true),
      ],
      mailsReceived: (await world.outbox(runId)).length,
      completed: view?.status === 'completed',
      status: view?.status ?? end.end,
    });
    const figures = {
      ...judged.figures,
      'connections reset, refused': `${cut.counts.reset}, ${cut.counts.refused}`,
      ...(handle.durability ? { durability: handle.durability } : {}),
    };
    return { verdict: judged.verdict, figures, runId, ledger, durable };
  } finally {
    await crew.kill();
    await cut.close();
  }
};
