import { isTerminal, type Variant } from '@vendor-review/pipeline';
import { type RuntimeAdapter, notNowPauseMs, reportWorkerGone } from '@vendor-review/conformance';
import type { WorkerProcess } from '@vendor-review/testbed';
import { PoolProcesses, type Pool, type PoolContext, type PoolRun } from './pool.ts';
import type { Armed } from './schedule.ts';

/** How long a worker gets to leave by itself once its run has ended, before it is killed. */
const LEAVE_GRACE_MS = 5_000;
/** At most this many processes on one run at once: the frozen one, its replacement, one spare. */
const MAX_LIVE_PER_RUN = 3;

interface Served {
  run: PoolRun;
  procs: WorkerProcess[];
  restarts: number;
  notBefore: number;
  /** The runtime's records (a lease) named one of this run's live processes as its owner. */
  ownerSeen: boolean;
  lapsedSince: number | null;
  gaveUp: boolean;
  endedAt: number | null;
  /** Dead processes already reported to the runtime (workerGone) and counted. */
  buried: Set<WorkerProcess>;
}

/**
 * The pool of a runtime whose workers live a process per run (WorkerModel `per-run`), kept by a
 * supervisor's policy that acts only on what it can see
 * from outside: a process that exits without its run having ended is replaced (after telling the
 * runtime, which then frees what the dead process held), a "not now" exit is retried shortly, and a
 * run the runtime's own records show nobody holding any more (the live owner's lease lapsed: the
 * process is frozen, partitioned, or stuck reconnecting) gets a second worker while the first is
 * still there, as any lease-based system does. The naive variant keeps no owner record, so a frozen
 * naive worker is simply waited for: nothing outside it can tell.
 */
export class PerRunPool extends PoolProcesses implements Pool {
  readonly id: string;
  readonly runtime: string;
  readonly #served = new Map<string, Served>();
  readonly #byRun = new Map<string, WorkerProcess[]>();
  readonly #runOf = new Map<WorkerProcess, string>();

  constructor(
    readonly adapter: RuntimeAdapter,
    readonly variant: Variant,
    private readonly ctx: PoolContext,
    private readonly short: string,
  ) {
    super();
    this.runtime = adapter.name;
    this.id = `${adapter.name}/${variant}`;
  }

  async start(): Promise<void> {}

  async recycle(): Promise<void> {}

  async admit(run: PoolRun): Promise<void> {
    const s: Served = {
      run,
      procs: [],
      restarts: 0,
      notBefore: 0,
      ownerSeen: false,
      lapsedSince: null,
      gaveUp: false,
      endedAt: null,
      buried: new Set(),
    };
    // Supervised once its first worker is there: a tick in between would start a second.
    await this.#startFor(s, run.plan.crash ? { crash: run.plan.crash, stopMs: run.plan.stopMs } : null);
    this.#served.set(run.handle.runId, s);
    this.#byRun.set(run.handle.runId, s.procs);
  }

  async #startFor(s: Served, armed: Armed | null): Promise<WorkerProcess> {
    const name = `${this.short}-${s.run.label}.${s.procs.length}`;
    const runId = s.run.handle.runId;
    const w = await this.startWorker({
      name,
      armed,
      spec: (crashPlan) => this.adapter.workerSpec(s.run.handle, { name, crashPlan }),
      ctx: this.ctx,
      runId,
    });
    s.procs.push(w);
    this.#runOf.set(w, runId);
    return w;
  }

  async tick(): Promise<void> {
    for (const s of [...this.#served.values()]) {
      if (this.stopped) return;
      await this.#supervise(s).catch((err: unknown) =>
        this.ctx.journal.add({
          kind: 'note',
          pool: this.id,
          runId: s.run.handle.runId,
          detail: `supervisor: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
    }
  }

  async #supervise(s: Served): Promise<void> {
    const now = Date.now();
    const live = s.procs.filter((w) => w.alive);
    if (s.run.ended) {
      s.endedAt ??= now;
      if (live.length === 0) this.#served.delete(s.run.handle.runId);
      else if (now - s.endedAt > LEAVE_GRACE_MS) await Promise.all(live.map((w) => w.kill()));
      return;
    }
    if (this.held) return;
    for (const dead of s.procs.filter((w) => !w.alive && !s.buried.has(w))) await this.#bury(s, dead);
    if (live.length === 0) {
      if (s.gaveUp || now < s.notBefore) return;
      // A worker that left by itself may have finished the run: look before starting another.
      const view = await this.adapter.status(s.run.handle).catch(() => null);
      if (!view || isTerminal(view.status)) return;
      if (s.restarts > this.ctx.policy.restarts) {
        s.gaveUp = true;
        this.ctx.journal.add({
          kind: 'give-up',
          pool: this.id,
          runId: s.run.handle.runId,
          detail: `${s.restarts} workers ended on their own without finishing this run; the supervisor leaves it (status ${view.status})`,
        });
        return;
      }
      await this.#startFor(s, null);
      s.ownerSeen = false;
      s.lapsedSince = null;
      return;
    }
    await this.#probeOwner(s, live, now);
  }

  /**
   * A process is gone: reported to the runtime once. Only a worker that ended by itself without
   * finishing counts towards giving up (a crash loop); one killed by a signal (a strike, its own
   * crash point) says nothing about whether the next one can finish, and "not now" is no failure.
   */
  async #bury(s: Served, dead: WorkerProcess): Promise<void> {
    s.buried.add(dead);
    const life = await dead.exited;
    if (this.adapter.isRetryableExit(life.exitCode)) {
      s.notBefore = Math.max(
        s.notBefore,
        (life.exitedAt ?? Date.now()) + (await notNowPauseMs(this.adapter, s.run.handle)),
      );
      return;
    }
    if (life.signal === null) s.restarts++;
    if (this.ctx.policy.reportsGone) await reportWorkerGone(this.adapter, s.run.handle, life);
  }

  async #probeOwner(s: Served, live: WorkerProcess[], now: number): Promise<void> {
    if (!this.adapter.inFlight) return;
    const tasks = await this.adapter.inFlight(s.run.handle).catch(() => null);
    if (tasks === null) return; // the database is away: nothing can be concluded
    const owner = tasks.find((t) => t.worker !== null)?.worker ?? null;
    if (owner !== null) {
      if (live.some((w) => w.life.name === owner)) s.ownerSeen = true;
      s.lapsedSince = null;
      return;
    }
    if (!s.ownerSeen) return;
    s.lapsedSince ??= now;
    const { secondOnLapsedHoldMs } = this.ctx.policy;
    if (secondOnLapsedHoldMs === null || now - s.lapsedSince < secondOnLapsedHoldMs || live.length >= MAX_LIVE_PER_RUN)
      return;
    const view = await this.adapter.status(s.run.handle).catch(() => null);
    s.ownerSeen = false;
    s.lapsedSince = null;
    if (!view || isTerminal(view.status)) return;
    const w = await this.#startFor(s, null);
    this.ctx.journal.add({
      kind: 'takeover',
      pool: this.id,
      worker: w.life.name,
      pid: w.pid,
      runId: s.run.handle.runId,
      detail: `the run's lease lapsed while ${live.map((l) => l.life.name).join(', ')} still ran: a second worker is sent`,
    });
  }

  servedBy(runId: string): WorkerProcess[] {
    return this.#byRun.get(runId) ?? [];
  }

  gaveUp(runId: string): boolean {
    return this.#served.get(runId)?.gaveUp ?? false;
  }

  runOf(w: WorkerProcess): string | null {
    return this.#runOf.get(w) ?? null;
  }
}
