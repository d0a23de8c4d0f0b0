import type { RunStatus, Variant } from '@vendor-review/pipeline';
import { followRun, type InfraServer } from '@vendor-review/conformance';
import { vendorRequest, type WorldClient } from '@vendor-review/world';
import type { Infra } from '../infra.ts';
import { strikeSchedule, type Admission, type CampaignOptions } from './campaign-plan.ts';
import { Injector } from './injector.ts';
import type { Journal } from './journal.ts';
import type { Pool, PoolRun } from './pool.ts';
import type { ChaosRuntime } from './runtimes.ts';
import type { Strike } from './schedule.ts';

/**
 * A campaign's state, in one place: its pools, the runs it started, which phase it is in, and the
 * strikes still to come. The phases (campaign-phases.ts) move it along; what it does itself is
 * drive each run from its start to its end: admit it, follow it, approve it when its plan lets it.
 */
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

/** One runtime × variant: its workers, the servers its runs keep something in, the runs it has yet to start. */
export interface PoolEntry {
  rt: ChaosRuntime;
  variant: Variant;
  pool: Pool;
  servers: readonly InfraServer[];
  waiting: Admission[];
}

/**
 * Strikes fire only during 'reviews'. A run whose plan holds its approval is approved by an
 * approve-while-down strike, or by its follower once the campaign is 'quiescing'; 'last-strike' is
 * the moment in between, when the held runs get the last approve-while-down.
 */
export type CampaignPhase = 'baselines' | 'reviews' | 'last-strike' | 'quiescing';

export const TICK_MS = 250;
const APPROVER = { approved: true, by: 'chaos-harness' };

/** The review every run asks for: one vendor, its first requirement (every step still runs). */
function requestFor(vendor: string, worldUrl: string) {
  const request = vendorRequest(vendor, worldUrl);
  return { ...request, requirements: request.requirements.slice(0, 1) };
}

/** What a campaign runs on, brought up before it starts. */
export interface CampaignEnv {
  infra: Infra;
  world: WorldClient;
  pools: readonly PoolEntry[];
  journal: Journal;
  progress: CampaignProgress;
}

export class CampaignState {
  readonly infra: Infra;
  readonly world: WorldClient;
  readonly pools: readonly PoolEntry[];
  readonly journal: Journal;
  readonly progress: CampaignProgress;
  /** The strikes in time order, the seed's or a replay's. */
  readonly schedule: readonly Strike[];
  readonly injector: Injector;

  readonly runs: TrackedRun[] = [];
  /** What the report says beside the table: runs left out, baselines that did not end. */
  readonly notes: string[] = [];
  phase: CampaignPhase = 'baselines';
  /** Cleared once the campaign is over: a run not ended by then is followed no longer. */
  following = true;
  /** The last time a run was admitted or ended (the campaign gives up once nothing moved for the bound). */
  lastProgress = Date.now();
  /** Epoch ms of the schedule's zero (null until the reviews start). */
  strikesFrom: number | null = null;
  /** How long the strikes went on, from their zero to the end of the reviews. */
  injectedFor = 0;
  readonly #followers: Promise<void>[] = [];

  constructor(
    readonly o: CampaignOptions,
    env: CampaignEnv,
  ) {
    this.infra = env.infra;
    this.world = env.world;
    this.pools = env.pools;
    this.journal = env.journal;
    this.progress = env.progress;
    this.schedule = strikeSchedule(o);
    this.injector = new Injector({
      strikes: this.schedule,
      pools: this.pools.map((e) => ({
        pool: e.pool,
        servers: e.servers,
        inFlight: () => this.open(e).filter((r) => !r.baseline),
      })),
      servers: this.infra.hazardInfra,
      world: this.world,
      journal: this.journal,
      approveWaiting: () => this.approveWaiting(),
    });
  }

  poolOf(run: TrackedRun): PoolEntry {
    return this.pools.find((e) => e.pool.id === run.pool)!;
  }

  /** The pool's runs not ended yet. */
  open(e: PoolEntry): TrackedRun[] {
    return this.runs.filter((r) => r.pool === e.pool.id && !r.ended);
  }

  /** One round: every pool supervises its workers, and the strikes due now fire (only while reviews run). */
  async tick(): Promise<void> {
    for (const e of this.pools) await e.pool.tick();
    if (this.phase === 'reviews') this.injector.tick();
  }

  /** True when the run was started; false when it must be tried again; 'skip' when it can never be. */
  async admit(e: PoolEntry, a: Admission): Promise<boolean | 'skip'> {
    const { plan, runId } = a;
    let handle;
    try {
      handle = await e.rt.adapter.startRun(requestFor(plan.vendor, this.infra.worldUrl), e.rt.configFor(e.variant), {
        runId,
      });
    } catch (err) {
      // A server restarting may have taken the start and lost the answer: the run exists, without a
      // handle to drive it. It is left out (and said so) rather than started again under its id.
      const exists = await e.rt.adapter
        .status({ runId } as Parameters<typeof e.rt.adapter.status>[0])
        .then((v) => v.status !== 'not-found')
        .catch(() => false);
      this.journal.add({
        kind: 'note',
        pool: e.pool.id,
        runId,
        detail: `start failed (${(err as Error).message.slice(0, 160)})${exists ? ': the run exists anyway, left out' : ', tried again'}`,
      });
      if (exists)
        this.notes.push(
          `${runId} was started although the call failed (a server restarting): left out of the campaign`,
        );
      return exists ? 'skip' : false;
    }
    for (const f of plan.faults) await this.world.addFault({ ...f, runId });
    const run: TrackedRun = {
      index: plan.index,
      label: a.label,
      plan,
      handle,
      ended: false,
      pool: e.pool.id,
      runtime: e.rt.name,
      variant: e.variant,
      baseline: a.baseline,
      startedAt: Date.now(),
      endedAt: null,
      status: null,
      approvals: [],
      gateSince: null,
    };
    this.runs.push(run);
    await e.pool.admit(run);
    this.#followers.push(this.#follow(e, run));
    this.progress.started(runId, `${e.pool.id} ${a.baseline ? `baseline ${plan.vendor}` : `#${plan.index}`}`);
    return true;
  }

  /** The approve-while-down strike's middle: every pool is down; approve every run waiting for a decision. */
  async approveWaiting(): Promise<Map<string, number>> {
    const approved = new Map<string, number>();
    for (const e of this.pools)
      for (const run of this.open(e)) {
        if (run.approvals.length) continue;
        const view = await e.rt.adapter.status(run.handle).catch(() => null);
        if (view?.status === 'awaiting-approval') run.gateSince ??= Date.now();
        if (view?.status === 'awaiting-approval' && (await this.#approve(run, true)))
          approved.set(e.pool.id, (approved.get(e.pool.id) ?? 0) + 1);
      }
    return approved;
  }

  /** The campaign is over: every follower still waiting ends at its next status read. */
  async stopFollowing(): Promise<void> {
    this.following = false;
    await Promise.all(this.#followers);
  }

  async #approve(run: TrackedRun, whileDown: boolean): Promise<boolean> {
    try {
      await this.poolOf(run).rt.adapter.approve(run.handle, APPROVER);
    } catch {
      return false; // a server restarting: the next round asks again
    }
    run.approvals.push({ at: Date.now(), whileDown });
    this.journal.add({
      kind: 'approval',
      pool: run.pool,
      runId: run.handle.runId,
      detail: whileDown
        ? 'approved while no worker was alive'
        : `approved (${this.poolOf(run).pool.live().length} worker(s) alive)`,
    });
    return true;
  }

  /**
   * Drives one run to its end: its status on every view, its approval once its plan lets it (a
   * failed call is tried at the next poll), its end. Servers restart under it: no read error ends it.
   */
  #follow(e: PoolEntry, run: TrackedRun): Promise<void> {
    return followRun({
      adapter: e.rt.adapter,
      handle: run.handle,
      // Past the bound a run is still followed: the campaign says when it is over.
      boundMs: Infinity,
      pollMs: TICK_MS,
      statusErrorsTolerated: Infinity,
      approve: async () => {
        if (run.approvals.length) return true; // an approve-while-down strike sent it
        if (run.plan.holdApproval && !run.baseline && this.phase !== 'quiescing') return false;
        return this.#approve(run, false);
      },
      stopWhen: () => !this.following,
      onView: (view) => {
        if (!view) return;
        run.status = view.status;
        if (view.status === 'awaiting-approval') run.gateSince ??= Date.now();
      },
    })
      .then((end) => {
        if (end.end !== 'terminal') return;
        run.ended = true;
        run.endedAt = this.lastProgress = Date.now();
        this.progress.finished(run.handle.runId);
      })
      .catch((err: unknown) => {
        this.journal.add({
          kind: 'note',
          pool: run.pool,
          runId: run.handle.runId,
          detail: `no longer followed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300),
        });
      });
  }
}
