import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { RunStatus, Variant } from '@vendor-review/pipeline';
import type { InfraServer } from '@vendor-review/conformance';
import { POLICIES, followRun, safeDigest } from '@vendor-review/conformance';
import { vendorRequest, worldClient, type WorldClient } from '@vendor-review/world';
import { flatVersions, machine, versions } from '../bench/machine.ts';
import { serverVersions, startInfra, type Infra } from '../infra.ts';
import { checkRun, poolRow, type Baseline, type PoolRow, type RunVerdict } from './checker.ts';
import { Injector, type InjectorPool } from './injector.ts';
import { Journal, type JournalEntry } from './journal.ts';
import type { Pool, PoolRun } from './pool.ts';
import { collectEvidence, unsentOutboxRows, type RunEvidence } from './run-evidence.ts';
import { chaosQueue, chaosRuntime, type ChaosRuntime } from './runtimes.ts';
import {
  chaosRunId,
  runPlan,
  strikes as scheduleStrikes,
  workerPlan,
  type RunPlan,
  type ScheduleOptions,
  type Strike,
} from './schedule.ts';

/**
 * The campaign runner: brings everything up, runs one uncrashed baseline per runtime, variant and
 * vendor, then N reviews per runtime × variant through their pools while the injector strikes on
 * the seed's schedule, lets everything quiesce (no strike, every run ended or past the bound, no
 * outbox row waiting), stops every worker, reads the records and hands them to the checker. Each
 * run is followed (followRun) from its start until it ends or the campaign is over, and approved
 * once the schedule lets it.
 */
export interface CampaignOptions {
  seed: string;
  /** Reviews per runtime × variant. */
  runs: number;
  runtimes: readonly string[];
  variants: readonly Variant[];
  /** Worker processes of a queue pool, and runs in flight per pool. */
  workers: number;
  /** A run not ended this long after the last strike (or without any progress this long) is stuck. */
  boundMs: number;
  schedule: ScheduleOptions;
  /** A replay: only these run indexes, under these strikes (offsets from the run's own start). */
  only?: { indexes: readonly number[]; strikes: readonly Strike[]; runId: string };
  env?: NodeJS.ProcessEnv;
  command?: string;
}

export interface CampaignProgress {
  log(line: string): void;
  started(id: string, label: string): void;
  finished(id: string): void;
}

export interface TrackedRun extends PoolRun {
  pool: string;
  runtime: string;
  variant: Variant;
  baseline: boolean;
  startedAt: number;
  endedAt: number | null;
  status: RunStatus | null;
  approvals: { at: number; whileDown: boolean }[];
  /** When the run was first seen waiting for its approval (null: not yet). */
  gateSince: number | null;
}

export interface CampaignOutcome {
  startedAt: number;
  /** Epoch ms of the schedule's zero (null when no strike phase ran). */
  strikesFrom: number | null;
  wallTimeMs: number;
  /** Each with its runtime's title, for the table. */
  rows: (PoolRow & { title: string })[];
  runs: TrackedRun[];
  verdicts: Map<string, RunVerdict>;
  evidence: Map<string, RunEvidence>;
  baselines: { pool: string; vendor: string; runId: string; digest: string | null }[];
  strikes: (Strike & { fired: boolean })[];
  journal: Journal;
  infra: { world: string; postgres: string; servers: string[] };
  machine: ReturnType<typeof machine>;
  versions: Record<string, string | null>;
  notes: string[];
}

interface PoolEntry {
  rt: ChaosRuntime;
  variant: Variant;
  pool: Pool;
  servers: readonly InfraServer[];
  next: number;
}

/** How long the strike schedule reaches: far beyond any campaign, it is cut where the campaign ends. */
const HORIZON_MS = 6 * 3600_000;
const TICK_MS = 250;
/** Outbox rows still pending once every run has ended get this long to be sent. */
const OUTBOX_SETTLE_MS = 30_000;
const APPROVER = { approved: true, by: 'chaos-harness' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The review every run asks for: one vendor, its first requirement (every step still runs). */
function requestFor(vendor: string, worldUrl: string) {
  const request = vendorRequest(vendor, worldUrl);
  return { ...request, requirements: request.requirements.slice(0, 1) };
}

/** How many baselines and reviews a campaign with these options runs (for the progress footer). */
export function plannedRuns(o: Pick<CampaignOptions, 'runs' | 'runtimes' | 'variants' | 'schedule' | 'only'>): number {
  const pools = o.runtimes.length * o.variants.length;
  const indexes = o.only ? o.only.indexes : Array.from({ length: o.runs }, (_, i) => i);
  const vendors = new Set(indexes.map((i) => runPlan(o.schedule, i).vendor));
  return pools * (indexes.length + vendors.size);
}

export async function runCampaign(o: CampaignOptions, progress: CampaignProgress): Promise<CampaignOutcome> {
  const began = Date.now();
  const host = machine();
  const notes: string[] = [];
  const journal = new Journal((e) => {
    if (e.kind === 'strike' || e.kind === 'server-restart' || e.kind === 'give-up' || e.kind === 'takeover')
      progress.log(`  ${e.kind}${e.strike ? ` #${e.strike}` : ''}${e.pool ? ` ${e.pool}` : ''}: ${e.detail}`);
  });
  // Every run of a variant goes to one queue its pool serves (for a runtime with queues).
  const tag = `${o.seed}-${randomBytes(3).toString('hex')}`;
  const infra = await startInfra({
    runtimes: o.runtimes,
    sharedQueue: chaosQueue(tag),
    ...(o.env ? { env: o.env } : {}),
    log: progress.log,
    command: o.command ?? 'pnpm chaos',
  });
  const entries: PoolEntry[] = [];
  try {
    const started = o.runtimes.map((n) => chaosRuntime(infra.runtimes.get(n)!));
    const ctx = {
      journal,
      policy: POLICIES.chaos,
      worldUrl: infra.worldUrl,
      partitions: o.schedule.gapsMs.partition > 0,
    };
    for (const rt of started)
      for (const variant of o.variants) {
        const pool = rt.pool(variant, ctx, o.workers, (slot, inc) => workerPlan(o.schedule, slot, inc));
        const servers = rt.adapter.drills?.servers(rt.configFor(variant)) ?? [];
        entries.push({ rt, variant, pool, servers, next: 0 });
      }
    progress.log(`chaos: starting ${entries.length} pool(s) of workers`);
    await Promise.all(entries.map((e) => e.pool.start()));
    const world = worldClient(infra.worldUrl);
    const outcome = await campaign(o, { infra, world, entries, journal, progress, notes });
    return {
      ...outcome,
      startedAt: began,
      wallTimeMs: Date.now() - began,
      journal,
      infra: (() => {
        const d = infra.describe();
        return { world: d.world, postgres: d.postgres, servers: d.servers.map((s) => `${s.title} ${s.description}`) };
      })(),
      machine: { ...host, loadAverage: { ...host.loadAverage, end: Math.round(os.loadavg()[0]! * 100) / 100 } },
      versions: flatVersions(await versions(infra.databaseUrl, serverVersions(infra), o.runtimes)),
      notes,
    };
  } finally {
    await Promise.all(entries.map((e) => e.pool.stop()));
    await infra.teardown();
  }
}

async function campaign(
  o: CampaignOptions,
  env: {
    infra: Infra;
    world: WorldClient;
    entries: PoolEntry[];
    journal: Journal;
    progress: CampaignProgress;
    notes: string[];
  },
): Promise<Omit<CampaignOutcome, 'startedAt' | 'wallTimeMs' | 'journal' | 'infra' | 'machine' | 'versions' | 'notes'>> {
  const { infra, world, entries, journal, progress, notes } = env;
  const runs: TrackedRun[] = [];
  const indexes = o.only ? [...o.only.indexes] : Array.from({ length: o.runs }, (_, i) => i);
  let injecting = false;
  /** Set once the last approve-while-down is over: from then on a run held by its plan is approved too. */
  let quiescing = false;
  /** Cleared once the campaign is over: a run not ended by then is followed no longer. */
  let following = true;
  const followers: Promise<void>[] = [];
  /** The last time a run was admitted or ended (the campaign gives up once nothing moved for the bound). */
  let lastProgress = Date.now();

  const entryOf = (run: TrackedRun) => entries.find((e) => e.pool.id === run.pool)!;
  const open = (e: PoolEntry) => runs.filter((r) => r.pool === e.pool.id && !r.ended);

  const approve = async (run: TrackedRun, whileDown: boolean): Promise<boolean> => {
    try {
      await entryOf(run).rt.adapter.approve(run.handle, APPROVER);
    } catch {
      return false; // a server restarting: the next round asks again
    }
    run.approvals.push({ at: Date.now(), whileDown });
    journal.add({
      kind: 'approval',
      pool: run.pool,
      runId: run.handle.runId,
      detail: whileDown
        ? 'approved while no worker was alive'
        : `approved (${entryOf(run).pool.live().length} worker(s) alive)`,
    });
    return true;
  };

  /**
   * Drives one run to its end: its status on every view, its approval once its plan lets it (a
   * failed call is tried at the next poll), its end. Servers restart under it: no read error ends it.
   */
  const follow = (e: PoolEntry, run: TrackedRun): Promise<void> =>
    followRun({
      adapter: e.rt.adapter,
      handle: run.handle,
      // Past the bound a run is still followed: the campaign says when it is over.
      boundMs: Infinity,
      pollMs: TICK_MS,
      statusErrorsTolerated: Infinity,
      approve: async () => {
        if (run.approvals.length) return true; // an approve-while-down strike sent it
        if (run.plan.holdApproval && !run.baseline && !quiescing) return false;
        return approve(run, false);
      },
      stopWhen: () => !following,
      onView: (view) => {
        if (!view) return;
        run.status = view.status;
        if (view.status === 'awaiting-approval') run.gateSince ??= Date.now();
      },
    })
      .then((end) => {
        if (end.end !== 'terminal') return;
        run.ended = true;
        run.endedAt = lastProgress = Date.now();
        progress.finished(run.handle.runId);
      })
      .catch((err: unknown) => {
        journal.add({
          kind: 'note',
          pool: run.pool,
          runId: run.handle.runId,
          detail: `no longer followed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300),
        });
      });

  /** The campaign is over: every follower still waiting ends at its next status read. */
  const stopFollowing = async (): Promise<void> => {
    following = false;
    await Promise.all(followers);
  };

  /** The approve-while-down strike's middle: every pool is down; approve every run waiting for a decision. */
  const approveWaiting = async (): Promise<Map<string, number>> => {
    const approved = new Map<string, number>();
    for (const e of entries)
      for (const run of open(e)) {
        if (run.approvals.length) continue;
        const view = await e.rt.adapter.status(run.handle).catch(() => null);
        if (view?.status === 'awaiting-approval') run.gateSince ??= Date.now();
        if (view?.status === 'awaiting-approval' && (await approve(run, true)))
          approved.set(e.pool.id, (approved.get(e.pool.id) ?? 0) + 1);
      }
    return approved;
  };

  /** True when the run was started; false when it must be tried again; 'skip' when it can never be. */
  const admit = async (
    e: PoolEntry,
    plan: RunPlan,
    runId: string,
    baseline: boolean,
    label: string,
  ): Promise<boolean | 'skip'> => {
    let handle;
    try {
      handle = await e.rt.adapter.startRun(requestFor(plan.vendor, infra.worldUrl), e.rt.configFor(e.variant), {
        runId,
      });
    } catch (err) {
      // A server restarting may have taken the start and lost the answer: the run exists, without a
      // handle to drive it. It is left out (and said so) rather than started again under its id.
      const exists = await e.rt.adapter
        .status({ runId } as Parameters<typeof e.rt.adapter.status>[0])
        .then((v) => v.status !== 'not-found')
        .catch(() => false);
      journal.add({
        kind: 'note',
        pool: e.pool.id,
        runId,
        detail: `start failed (${(err as Error).message.slice(0, 160)})${exists ? ': the run exists anyway, left out' : ', tried again'}`,
      });
      if (exists)
        notes.push(`${runId} was started although the call failed (a server restarting): left out of the campaign`);
      return exists ? 'skip' : false;
    }
    for (const f of plan.faults) await world.addFault({ ...f, runId });
    const run: TrackedRun = {
      index: plan.index,
      label,
      plan,
      handle,
      ended: false,
      pool: e.pool.id,
      runtime: e.rt.name,
      variant: e.variant,
      baseline,
      startedAt: Date.now(),
      endedAt: null,
      status: null,
      approvals: [],
      gateSince: null,
    };
    runs.push(run);
    await e.pool.admit(run);
    followers.push(follow(e, run));
    progress.started(runId, `${e.pool.id} ${baseline ? `baseline ${plan.vendor}` : `#${plan.index}`}`);
    return true;
  };

  const tick = async (): Promise<void> => {
    for (const e of entries) await e.pool.tick();
    if (injecting) injector.tick();
  };

  const injectorPools: InjectorPool[] = entries.map((e) => ({
    pool: e.pool,
    servers: e.servers,
    inFlight: () => open(e).filter((r) => !r.baseline),
  }));
  const schedule = o.only ? [...o.only.strikes] : scheduleStrikes(o.schedule, HORIZON_MS);
  const injector = new Injector({
    strikes: schedule,
    pools: injectorPools,
    servers: infra.hazardInfra,
    world,
    journal,
    approveWaiting,
  });

  try {
    // 1. Baselines: one uncrashed run per pool and vendor, before any strike.
    const vendors = [...new Set(indexes.map((i) => runPlan(o.schedule, i).vendor))];
    progress.log(`chaos: ${vendors.length} baseline(s) per pool (uncrashed, no faults)`);
    const baselineQueue = entries.flatMap((e) =>
      vendors.map((vendor, v) => ({
        e,
        vendor,
        runId: chaosRunId(o.seed, e.rt.info.label, e.variant, `b${v}`),
        label: `b${v}`,
      })),
    );
    const baselineDeadline = Date.now() + o.boundMs * 2;
    while (Date.now() < baselineDeadline) {
      for (const e of entries)
        while (open(e).length < o.workers && baselineQueue.some((b) => b.e === e)) {
          const b = baselineQueue.find((x) => x.e === e)!;
          const plan: RunPlan = {
            index: -1,
            vendor: b.vendor,
            crash: null,
            stopMs: null,
            faults: [],
            holdApproval: false,
          };
          const admitted = await admit(e, plan, b.runId, true, b.label);
          if (admitted === false) break;
          baselineQueue.splice(baselineQueue.indexOf(b), 1);
        }
      await tick();
      if (!baselineQueue.length && runs.every((r) => r.ended)) break;
      await sleep(TICK_MS);
    }
    for (const r of runs.filter((x) => !x.ended))
      notes.push(`baseline ${r.handle.runId} did not end: its reviews are compared with nothing`);

    // 2. The campaign: runs admitted as slots free up, strikes on the schedule, on workers the schedule arms.
    await Promise.all(entries.map((e) => e.pool.recycle()));
    progress.log(`chaos: ${indexes.length} review(s) per pool under the schedule of seed ${o.seed}`);
    injecting = true;
    const strikesFrom = Date.now();
    injector.start(strikesFrom);
    lastProgress = Date.now();
    const pending = (e: PoolEntry) => e.next < indexes.length;
    for (;;) {
      // Admitted before the strikes due now are fired: a replay's strikes count from its run's start.
      for (const e of entries) {
        // A run past the bound keeps being supervised, but no longer holds a slot; nor does one its pool gave up.
        const busy = () =>
          open(e).filter((r) => !r.baseline && Date.now() - r.startedAt < o.boundMs && !e.pool.gaveUp(r.handle.runId))
            .length;
        while (busy() < o.workers && pending(e)) {
          const index = indexes[e.next]!;
          const plan = runPlan(o.schedule, index);
          const admitted = await admit(
            e,
            plan,
            chaosRunId(o.seed, e.rt.info.label, e.variant, index),
            false,
            String(index).padStart(3, '0'),
          );
          if (admitted === false) break;
          e.next++;
          lastProgress = Date.now();
        }
      }
      await tick();
      const allAdmitted = entries.every((e) => !pending(e));
      const stillOpen = runs.filter((r) => !r.ended && !r.baseline && !entryOf(r).pool.gaveUp(r.handle.runId));
      if (allAdmitted && stillOpen.length === 0) break;
      if (Date.now() - lastProgress > o.boundMs && allAdmitted) break;
      await sleep(TICK_MS);
    }
    const injectedFor = injector.elapsed();
    await injector.stop();
    injecting = false;
    progress.log(`chaos: strikes over after ${(injectedFor / 1000).toFixed(0)} s; quiescing`);

    // 3. Quiesce: the runs held at the gate get their approval while no worker is alive, as scheduled;
    // every run gets the bound to end; the outbox gets its last rows sent.
    const held = runs.filter((r) => !r.ended && !r.baseline && r.plan.holdApproval && r.approvals.length === 0);
    if (held.length) {
      const lastStrike: Strike = { seq: 0, kind: 'approve-while-down', at: injectedFor, pick: 0 };
      journal.add({
        kind: 'strike',
        strike: 0,
        detail: `approve-while-down: the last one, for ${held.length} held run(s)`,
      });
      await injector.fireNow(lastStrike);
    }
    quiescing = true;
    const quiesceDeadline = Date.now() + o.boundMs;
    // Nothing moves a run its pool gave up: waiting out the bound for it would only add time.
    const movable = () => runs.some((r) => !r.ended && !entryOf(r).pool.gaveUp(r.handle.runId));
    while (movable() && Date.now() < quiesceDeadline) {
      await tick();
      await sleep(TICK_MS);
    }
    const targets = runs.map((r) => {
      const { rt } = entryOf(r);
      return { runtime: r.runtime, adapter: rt.adapter, records: rt.records, handle: r.handle };
    });
    const settleDeadline = Date.now() + OUTBOX_SETTLE_MS;
    while (Date.now() < settleDeadline && (await unsentOutboxRows(targets).catch(() => 1)) > 0) {
      await tick();
      await sleep(TICK_MS * 2);
    }
    await Promise.all(entries.map((e) => e.pool.stop()));
    await stopFollowing();

    // 4. The evidence, read from outside once nothing runs any more, and the judgement.
    progress.log(`chaos: reading the evidence of ${runs.length} run(s)`);
    let read = 0;
    const evidence = await collectEvidence({
      world,
      targets,
      onRead: () => {
        if (++read % 100 === 0) progress.log(`chaos: ${read}/${targets.length} runs read`);
      },
    });
    // A run left unfinished is ended as an operator would, after its evidence was read.
    for (const r of runs.filter((x) => !x.ended))
      await entryOf(r)
        .rt.adapter.abandon?.(r.handle, 'the chaos campaign is over')
        .catch(() => undefined);

    const baselineOf = new Map<string, Baseline & { runId: string }>();
    for (const r of runs.filter((x) => x.baseline)) {
      const rec = evidence.get(r.handle.runId);
      const digest = rec?.final?.status === 'completed' ? safeDigest(rec.final.state) : null;
      baselineOf.set(`${r.pool}/${r.plan.vendor}`, { digest, ledger: rec?.ledger ?? [], runId: r.handle.runId });
    }
    const verdicts = new Map<string, RunVerdict>();
    for (const r of runs.filter((x) => !x.baseline)) {
      const base = baselineOf.get(`${r.pool}/${r.plan.vendor}`) ?? null;
      verdicts.set(
        r.handle.runId,
        checkRun(
          {
            runId: r.handle.runId,
            pool: r.pool,
            runtime: r.runtime,
            variant: r.variant,
            startedAt: r.startedAt,
            endedAt: r.endedAt,
            // The time a person took to answer is not the runtime's: held approvals wait on purpose.
            waitedMs: r.gateSince !== null && r.approvals[0] ? Math.max(0, r.approvals[0].at - r.gateSince) : 0,
            evidence: evidence.get(r.handle.runId)!,
          },
          base,
        ),
      );
    }
    const afterBaselines = (kind: string, pool: string) =>
      journal.entries.filter((e) => e.kind === kind && e.pool === pool && e.strike === undefined && e.at >= strikesFrom)
        .length;
    const rows = entries.map((e) => {
      const strikes = injector.counts.get(e.pool.id)!;
      const row = poolRow({
        pool: e.pool.id,
        runtime: e.rt.name,
        variant: e.variant,
        verdicts: runs.filter((r) => r.pool === e.pool.id && !r.baseline).map((r) => verdicts.get(r.handle.runId)!),
        faults: {
          kill: strikes.kill,
          'crash-point': afterBaselines('crash-point', e.pool.id),
          // Strikes froze workers at random moments; armed plans at their points.
          pause: strikes.pause + afterBaselines('pause', e.pool.id),
          'postgres-restart': strikes['postgres-restart'],
          'server-restart': strikes['server-restart'],
          'approve-while-down': strikes['approve-while-down'],
          partition: strikes.partition,
        },
      });
      return { ...row, title: e.rt.info.title };
    });
    const fired = new Set(journal.entries.filter((e) => e.kind === 'strike').map((e) => e.strike));
    return {
      strikesFrom,
      rows,
      runs,
      verdicts,
      evidence,
      baselines: [...baselineOf].map(([key, b]) => ({
        pool: key.slice(0, key.lastIndexOf('/')),
        vendor: key.slice(key.lastIndexOf('/') + 1),
        runId: b.runId,
        digest: b.digest,
      })),
      strikes: schedule.filter((s) => s.at <= injectedFor).map((s) => ({ ...s, fired: fired.has(s.seq) })),
    };
  } finally {
    // A campaign that failed half-way leaves nothing polling behind it.
    await stopFollowing();
  }
}

/** The journal around one run: its own entries, and what struck its pool or its servers while it lived. */
export function scheduleAround(
  journal: Journal,
  run: TrackedRun,
  workers: ReadonlySet<string> | undefined,
): JournalEntry[] {
  return journal.around({
    from: run.startedAt - 1_000,
    to: (run.endedAt ?? Date.now()) + 1_000,
    pool: run.pool,
    runId: run.handle.runId,
    ...(workers ? { workers } : {}),
  });
}
