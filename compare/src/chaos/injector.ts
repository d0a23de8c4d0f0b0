import { STORE_SERVER, type InfraServer } from '@vendor-review/conformance';
import type { HazardInfra } from '@vendor-review/conformance';
import type { NetworkCut, WorkerProcess } from '@vendor-review/testbed';
import type { WorldClient } from '@vendor-review/world';
import type { Journal } from './journal.ts';
import type { Pool, PoolRun } from './pool.ts';
import { STRIKE_KINDS, type Strike, type StrikeKind } from './schedule.ts';

/** How long every pool stays down during an approve-while-down strike once the approvals are in. */
const DOWN_AFTER_APPROVALS_MS = 500;

export interface InjectorPool {
  pool: Pool;
  /** The servers this pool's runs keep something in (drills.servers): which restarts reach it. */
  servers: readonly InfraServer[];
  /** Its runs in flight now. */
  inFlight(): PoolRun[];
}

/** Strikes that reached a pool, by kind. */
export type StrikeCounts = Record<StrikeKind, number>;

const zero = (): StrikeCounts => Object.fromEntries(STRIKE_KINDS.map((k) => [k, 0])) as StrikeCounts;

/**
 * Carries out the schedule's strikes at their times, against every pool at once. A strike never
 * waits for the one before (a PostgreSQL restart can be under way while a worker is killed); the
 * servers' own handles run their restarts one at a time. Whatever a strike cannot reach (a server
 * that is not the harness's own, a pool with nobody alive) is journaled as skipped, never faked.
 */
export class Injector {
  readonly counts = new Map<string, StrikeCounts>();
  readonly #pending: Strike[];
  readonly #running = new Set<Promise<void>>();
  readonly #paused = new Set<WorkerProcess>();
  readonly #cut = new Set<NetworkCut>();
  #t0 = 0;
  #stopped = false;

  constructor(
    private readonly o: {
      strikes: readonly Strike[];
      pools: readonly InjectorPool[];
      servers: HazardInfra;
      world: WorldClient;
      journal: Journal;
      /** Approves every run waiting for a decision, while no worker is alive; returns the runs approved per pool. */
      approveWaiting: () => Promise<Map<string, number>>;
    },
  ) {
    this.#pending = [...o.strikes];
    for (const p of o.pools) this.counts.set(p.pool.id, zero());
  }

  start(t0 = Date.now()): void {
    this.#t0 = t0;
  }

  /** Milliseconds since the schedule's zero. */
  elapsed(): number {
    return Date.now() - this.#t0;
  }

  /** Fires every strike that is due. */
  tick(): void {
    if (this.#stopped || this.#t0 === 0) return;
    while (this.#pending.length && this.#pending[0]!.at <= this.elapsed()) void this.fireNow(this.#pending.shift()!);
  }

  /** Carries out one strike now (the campaign's last approve-while-down, or a due one). */
  fireNow(strike: Strike): Promise<void> {
    const done: Promise<void> = this.#fire(strike)
      .catch((err: unknown) =>
        this.#note(strike, `failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300)),
      )
      .finally(() => this.#running.delete(done));
    this.#running.add(done);
    return done;
  }

  /** No more strikes; waits for those under way, wakes every paused worker and lets every pool restart. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([...this.#running]);
    for (const w of this.#paused) w.signal('SIGCONT');
    this.#paused.clear();
    for (const c of this.#cut) c.heal();
    this.#cut.clear();
    for (const p of this.o.pools) p.pool.release();
  }

  #count(pool: string, kind: StrikeKind, n = 1): void {
    this.counts.get(pool)![kind] += n;
  }

  #note(strike: Strike, detail: string, pool?: string): void {
    this.o.journal.add({
      kind: 'strike',
      strike: strike.seq,
      ...(pool ? { pool } : {}),
      detail: `${strike.kind}: ${detail}`,
    });
  }

  async #fire(s: Strike): Promise<void> {
    switch (s.kind) {
      case 'kill':
        return this.#eachTarget(s, (w, pool) => {
          void w.kill();
          this.#count(pool.id, 'kill');
          this.#journalHit('kill', s, pool, w, 'SIGKILL');
        });
      case 'pause':
        return this.#eachTarget(s, (w, pool) => {
          if (this.#paused.has(w)) return false;
          w.signal('SIGSTOP');
          this.#paused.add(w);
          this.#count(pool.id, 'pause');
          this.#journalHit('pause', s, pool, w, `SIGSTOP for ${s.pauseMs} ms`);
          setTimeout(() => {
            if (!this.#paused.delete(w)) return;
            w.signal('SIGCONT');
            this.#journalHit('resume', s, pool, w, 'SIGCONT');
          }, s.pauseMs ?? 0).unref();
          return true;
        });
      case 'partition':
        return this.#eachTarget(s, (w, pool) => {
          const cut = pool.cutOf(w);
          if (!cut || cut.isCut) return false;
          cut.cut();
          this.#cut.add(cut);
          this.#count(pool.id, 'partition');
          this.#journalHit('partition', s, pool, w, `cut off from its store and server for ${s.cutMs} ms`);
          setTimeout(() => {
            if (!this.#cut.delete(cut)) return;
            cut.heal();
            this.#journalHit('heal', s, pool, w, 'healed');
          }, s.cutMs ?? 0).unref();
          return true;
        });
      case 'postgres-restart':
        return this.#restart(s, [STORE_SERVER]);
      case 'server-restart':
        // Every runtime server of the harness's own at once: each pool meets its server's restart
        // as often as a single runtime's campaign would.
        return this.#restart(s, Object.keys(this.o.servers.servers ?? {}));
      case 'world-burst':
        return this.#burst(s);
      case 'approve-while-down':
        return this.#approveWhileDown(s);
    }
  }

  /** The live worker of each pool the strike picks: `pick` modulo how many are alive, oldest first. */
  #eachTarget(s: Strike, act: (w: WorkerProcess, pool: Pool) => boolean | void): void {
    const hit: string[] = [];
    for (const { pool } of this.o.pools) {
      const live = pool.live();
      const target = live.length ? live[s.pick % live.length]! : null;
      if (target && act(target, pool) !== false) hit.push(target.life.name);
    }
    this.#note(s, hit.length ? hit.join(', ') : 'no worker alive to strike');
  }

  #journalHit(
    kind: 'kill' | 'pause' | 'resume' | 'partition' | 'heal',
    s: Strike,
    pool: Pool,
    w: WorkerProcess,
    detail: string,
  ): void {
    const runId = pool.runOf(w);
    this.o.journal.add({
      kind,
      strike: s.seq,
      pool: pool.id,
      worker: w.life.name,
      pid: w.pid,
      ...(runId ? { runId } : {}),
      detail,
    });
  }

  async #restart(s: Strike, ids: readonly InfraServer[]): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        const handle = id === STORE_SERVER ? this.o.servers.postgres : this.o.servers.servers?.[id];
        const forgets = handle && 'forgetsOnRestart' in handle ? handle.forgetsOnRestart : null;
        if (!handle?.restart || forgets) {
          this.#note(
            s,
            `skipped: ${id} is not a server the harness owns and may restart${forgets ? ` (${forgets})` : ''}`,
          );
          return;
        }
        const reached = this.o.pools.filter((p) => p.servers.includes(id));
        if (!reached.length) return;
        this.#note(s, `${id} going down`);
        const { downMs } = await handle.restart();
        for (const p of reached) this.#count(p.pool.id, s.kind);
        this.o.journal.add({ kind: 'server-restart', strike: s.seq, detail: `${id} back after ${downMs} ms` });
      }),
    );
  }

  async #burst(s: Strike): Promise<void> {
    const burst = s.burst!;
    for (const p of this.o.pools) {
      const runs = p.inFlight();
      for (const run of runs) {
        const runId = run.handle.runId;
        await this.o.world.addFault({ ...burst, runId });
        this.o.journal.add({
          kind: 'world-fault',
          strike: s.seq,
          pool: p.pool.id,
          runId,
          detail: `${burst.kind}${burst.delayMs ? ` ${burst.delayMs} ms` : ''} on ${burst.route} ×${burst.times}`,
        });
      }
      if (runs.length) this.#count(p.pool.id, 'world-burst');
    }
    this.#note(s, `${burst.kind} on ${burst.route} ×${burst.times} for every run in flight`);
  }

  async #approveWhileDown(s: Strike): Promise<void> {
    const killed = await Promise.all(this.o.pools.map(async (p) => ({ pool: p.pool, workers: await p.pool.hold() })));
    for (const { pool, workers } of killed)
      for (const w of workers) this.#journalHit('kill', s, pool, w, 'SIGKILL: every worker down');
    this.#note(s, `every pool down (${killed.reduce((n, k) => n + k.workers.length, 0)} worker(s) killed)`);
    try {
      const approved = await this.o.approveWaiting();
      for (const [pool, n] of approved) this.#count(pool, 'approve-while-down', n);
      await new Promise((r) => setTimeout(r, DOWN_AFTER_APPROVALS_MS));
    } finally {
      for (const p of this.o.pools) p.pool.release();
      this.#note(s, 'pools released');
    }
  }
}
