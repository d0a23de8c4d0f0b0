import { POLICIES } from '@vendor-review/conformance';
import type { Infra } from '../infra.ts';
import {
  baselineAdmissions,
  baselineVendors,
  reviewAdmissions,
  reviewIndexes,
  type CampaignOptions,
} from './campaign-plan.ts';
import { TICK_MS, type CampaignProgress, type CampaignState, type PoolEntry } from './campaign-state.ts';
import type { Journal } from './journal.ts';
import { collectEvidence, unsentOutboxRows, type EvidenceTarget, type RunEvidence } from './run-evidence.ts';
import { chaosRuntime } from './runtimes.ts';
import { workerPlan, type Strike } from './schedule.ts';

/**
 * The phases of a campaign that run something, in the order campaign.ts calls them: the pools
 * start, the baselines run, the reviews run under the strikes, everything quiesces, the outbox
 * settles, the evidence is read. Each moves the campaign's state (campaign-state.ts) along.
 */

/** Outbox rows still pending once every run has ended get this long to be sent. */
const OUTBOX_SETTLE_MS = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pool per runtime × variant, none of them started yet. */
export function createPools(o: CampaignOptions, infra: Infra, journal: Journal): PoolEntry[] {
  const ctx = {
    journal,
    policy: POLICIES.chaos,
    worldUrl: infra.worldUrl,
    partitions: o.schedule.gapsMs.partition > 0,
  };
  return o.runtimes.flatMap((name) => {
    const rt = chaosRuntime(infra.runtimes.get(name)!);
    return o.variants.map((variant) => ({
      rt,
      variant,
      pool: rt.pool(variant, ctx, o.workers, (slot, inc) => workerPlan(o.schedule, slot, inc)),
      servers: rt.adapter.drills?.servers(rt.configFor(variant)) ?? [],
      waiting: [],
    }));
  });
}

export async function startPools(pools: readonly PoolEntry[], progress: CampaignProgress): Promise<void> {
  progress.log(`chaos: starting ${pools.length} pool(s) of workers`);
  await Promise.all(pools.map((e) => e.pool.start()));
}

/** Baselines: one uncrashed run per pool and vendor, before any strike. */
export async function runBaselines(c: CampaignState): Promise<void> {
  for (const e of c.pools) e.waiting = baselineAdmissions(c.o, e.rt.info.label, e.variant);
  c.progress.log(`chaos: ${baselineVendors(c.o).length} baseline(s) per pool (uncrashed, no faults)`);
  const deadline = Date.now() + c.o.boundMs * 2;
  while (Date.now() < deadline) {
    for (const e of c.pools) await admitWaiting(c, e, () => c.open(e).length);
    await c.tick();
    if (c.pools.every((e) => !e.waiting.length) && c.runs.every((r) => r.ended)) break;
    await sleep(TICK_MS);
  }
  for (const r of c.runs.filter((x) => !x.ended))
    c.notes.push(`baseline ${r.handle.runId} did not end: its reviews are compared with nothing`);
}

/** Reviews: runs admitted as slots free up, strikes on the schedule, on the workers the schedule arms. */
export async function runReviews(c: CampaignState): Promise<void> {
  await Promise.all(c.pools.map((e) => e.pool.recycle()));
  for (const e of c.pools) e.waiting = reviewAdmissions(c.o, e.rt.info.label, e.variant);
  c.progress.log(`chaos: ${reviewIndexes(c.o).length} review(s) per pool under the schedule of seed ${c.o.seed}`);
  c.phase = 'reviews';
  c.strikesFrom = Date.now();
  c.injector.start(c.strikesFrom);
  c.lastProgress = Date.now();
  for (;;) {
    // Admitted before the strikes due now are fired: a replay's strikes count from its run's start.
    for (const e of c.pools) await admitWaiting(c, e, () => slotsTaken(c, e));
    await c.tick();
    const allAdmitted = c.pools.every((e) => !e.waiting.length);
    const stillOpen = c.runs.filter((r) => !r.ended && !r.baseline && !c.poolOf(r).pool.gaveUp(r.handle.runId));
    if (allAdmitted && stillOpen.length === 0) break;
    if (Date.now() - c.lastProgress > c.o.boundMs && allAdmitted) break;
    await sleep(TICK_MS);
  }
  c.injectedFor = c.injector.elapsed();
  await c.injector.stop();
  c.phase = 'last-strike';
  c.progress.log(`chaos: strikes over after ${(c.injectedFor / 1000).toFixed(0)} s; quiescing`);
}

/**
 * Quiesce: the runs held at the gate get their approval while no worker is alive, as scheduled;
 * every run gets the bound to end.
 */
export async function quiesce(c: CampaignState): Promise<void> {
  const held = c.runs.filter((r) => !r.ended && !r.baseline && r.plan.holdApproval && r.approvals.length === 0);
  if (held.length) {
    const lastStrike: Strike = { seq: 0, kind: 'approve-while-down', at: c.injectedFor, pick: 0 };
    c.journal.add({
      kind: 'strike',
      strike: 0,
      detail: `approve-while-down: the last one, for ${held.length} held run(s)`,
    });
    await c.injector.fireNow(lastStrike);
  }
  c.phase = 'quiescing';
  const deadline = Date.now() + c.o.boundMs;
  // Nothing moves a run its pool gave up: waiting out the bound for it would only add time.
  const movable = () => c.runs.some((r) => !r.ended && !c.poolOf(r).pool.gaveUp(r.handle.runId));
  while (movable() && Date.now() < deadline) {
    await c.tick();
    await sleep(TICK_MS);
  }
}

/** The outbox gets its last rows sent; then every worker stops and no run is followed any more. */
export async function settle(c: CampaignState): Promise<void> {
  const targets = evidenceTargets(c);
  const deadline = Date.now() + OUTBOX_SETTLE_MS;
  while (Date.now() < deadline && (await unsentOutboxRows(targets).catch(() => 1)) > 0) {
    await c.tick();
    await sleep(TICK_MS * 2);
  }
  await Promise.all(c.pools.map((e) => e.pool.stop()));
  await c.stopFollowing();
}

/** The evidence, read from outside once nothing runs any more. */
export async function readEvidence(c: CampaignState): Promise<Map<string, RunEvidence>> {
  const targets = evidenceTargets(c);
  c.progress.log(`chaos: reading the evidence of ${c.runs.length} run(s)`);
  let read = 0;
  const evidence = await collectEvidence({
    world: c.world,
    targets,
    onRead: () => {
      if (++read % 100 === 0) c.progress.log(`chaos: ${read}/${targets.length} runs read`);
    },
  });
  // A run left unfinished is ended as an operator would, after its evidence was read.
  for (const r of c.runs.filter((x) => !x.ended))
    await c
      .poolOf(r)
      .rt.adapter.abandon?.(r.handle, 'the chaos campaign is over')
      .catch(() => undefined);
  return evidence;
}

/** Starts the pool's waiting runs while fewer than `workers` take its slots; one to try again waits for the next round. */
async function admitWaiting(c: CampaignState, e: PoolEntry, taken: () => number): Promise<void> {
  while (taken() < c.o.workers && e.waiting.length) {
    if ((await c.admit(e, e.waiting[0]!)) === false) return;
    e.waiting.shift();
    c.lastProgress = Date.now();
  }
}

/** A review past the bound keeps being supervised, but no longer takes a slot; nor does one its pool gave up. */
function slotsTaken(c: CampaignState, e: PoolEntry): number {
  return c
    .open(e)
    .filter((r) => !r.baseline && Date.now() - r.startedAt < c.o.boundMs && !e.pool.gaveUp(r.handle.runId)).length;
}

function evidenceTargets(c: CampaignState): EvidenceTarget[] {
  return c.runs.map((r) => {
    const { rt } = c.poolOf(r);
    return { runtime: r.runtime, adapter: rt.adapter, records: rt.records, handle: r.handle };
  });
}
