import type { SupervisorPolicy, RunHandle, RuntimeAdapter } from '@vendor-review/conformance';
import type { Variant } from '@vendor-review/pipeline';
import { NetworkCut, WorkerProcess, type WorkerSpec } from '@vendor-review/testbed';
import type { Journal } from './journal.ts';
import type { Armed, RunPlan } from './schedule.ts';

/**
 * The worker processes of one runtime × variant, kept as a supervisor keeps them. Two designs, one
 * per way a runtime's workers live (its module's WorkerModel: per-run-pool.ts, a process per run;
 * queue-pool.ts, a fixed number of processes polling one queue). Either way a worker that dies is
 * replaced, and the fault injector reaches the workers only through this interface.
 */
export interface PoolRun {
  index: number;
  /** How its workers are named: the run's number ("007"), or "b0" for a baseline. */
  label: string;
  plan: RunPlan;
  handle: RunHandle;
  /** Set by the campaign once the run is completed or failed. */
  ended: boolean;
}

export interface Pool {
  /** "langgraph/hardened" */
  readonly id: string;
  readonly runtime: string;
  readonly variant: Variant;
  readonly adapter: RuntimeAdapter;
  /** Every process started, in order. */
  readonly workers: readonly WorkerProcess[];
  start(): Promise<void>;
  /** A run was started: the pool sees to it that some worker serves it. */
  admit(run: PoolRun): Promise<void>;
  /** One round of supervision: replace what died, take over what the runtime says was lost. */
  tick(): Promise<void>;
  /** The processes alive now, oldest first. */
  live(): WorkerProcess[];
  /** Every live worker SIGKILLed, and none started again until release(): a moment with no worker alive. */
  hold(): Promise<WorkerProcess[]>;
  release(): void;
  /**
   * Every process replaced by the next incarnation of its slot (a deploy): the baselines run on
   * workers no crash point is armed in, the campaign on the ones the schedule arms. Nothing to do
   * for a pool that starts a process per run.
   */
  recycle(): Promise<void>;
  /** Kill everything, start nothing more. */
  stop(): Promise<void>;
  /** The processes that may have worked on this run (a queue pool: all of its workers alive meanwhile). */
  servedBy(runId: string): WorkerProcess[];
  /** True once the pool has stopped trying to move this run (its workers crash-looped): nothing will. */
  gaveUp(runId: string): boolean;
  /** The run a process was started for, when it was started for one. */
  runOf(w: WorkerProcess): string | null;
  /** The network cut a process reaches its store and its runtime's server through, when the campaign partitions workers. */
  cutOf(w: WorkerProcess): NetworkCut | null;
}

/**
 * What both designs do alike with their processes: start one (armed, journaled), list the live
 * ones, kill them all for a moment with no worker alive (hold), or for good (stop). When a pool
 * starts and replaces its processes is where they differ, and stays in each.
 */
export abstract class PoolProcesses {
  abstract readonly id: string;
  readonly workers: WorkerProcess[] = [];
  readonly #cuts = new Map<WorkerProcess, NetworkCut>();
  /** Between hold() and release(): nothing is started. */
  protected held = false;
  /** After stop(): nothing is started, nothing is supervised. */
  protected stopped = false;

  live(): WorkerProcess[] {
    return this.workers.filter((w) => w.alive);
  }

  /**
   * Starts a process armed as `armed` says (its spec made for that crash plan) and journals its
   * life: its start, its exit, and its wake-up if it froze at its point.
   */
  protected async startWorker(o: {
    name: string;
    armed: Armed | null;
    spec: (crashPlan: string | null) => WorkerSpec;
    ctx: PoolContext;
    runId?: string;
  }): Promise<WorkerProcess> {
    const crashPlan = o.armed?.crash ?? null;
    const w = await this.#spawn(o.name, o.spec(crashPlan), o.ctx);
    this.workers.push(w);
    const run = o.runId ? { runId: o.runId } : {};
    o.ctx.journal.add({
      kind: 'worker-start',
      pool: this.id,
      worker: o.name,
      pid: w.pid,
      ...run,
      detail: crashPlan ? `armed ${crashPlan}` : 'unarmed',
    });
    journalExit({ journal: o.ctx.journal, pool: this.id, worker: w, ...run });
    wakeAfterStop({ journal: o.ctx.journal, pool: this.id, worker: w, armed: o.armed, ...run });
    return w;
  }

  /**
   * Starts a process from `spec`, behind a network cut of its own when the campaign partitions
   * workers (the world stays reachable); the cut is closed when the process ends.
   */
  async #spawn(name: string, spec: WorkerSpec, ctx: PoolContext): Promise<WorkerProcess> {
    if (!ctx.partitions) return new WorkerProcess(name, spec);
    const cut = new NetworkCut();
    const w = new WorkerProcess(name, await cut.route(spec, { keep: [ctx.worldUrl] }));
    this.#cuts.set(w, cut);
    void w.exited.then(async () => {
      this.#cuts.delete(w);
      await cut.close();
    });
    return w;
  }

  cutOf(w: WorkerProcess): NetworkCut | null {
    return this.#cuts.get(w) ?? null;
  }

  async hold(): Promise<WorkerProcess[]> {
    this.held = true;
    const killed = this.live();
    await Promise.all(killed.map((w) => w.kill()));
    return killed;
  }

  release(): void {
    this.held = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.workers.map((w) => w.kill()));
  }
}

export interface PoolContext {
  journal: Journal;
  /** The world's address: a partitioned worker still reaches it. */
  worldUrl: string;
  /** The schedule cuts workers off (partition strikes): every process is started behind a network cut. */
  partitions: boolean;
  /** How its runs' workers are replaced, reported and doubled (POLICIES.chaos). */
  policy: SupervisorPolicy;
}

/** Journal the end of a worker: its exit, and the crash point it announced if it killed itself at one. */
function journalExit(o: { journal: Journal; pool: string; worker: WorkerProcess; runId?: string }): void {
  void o.worker.exited.then((life) => {
    const who = { pool: o.pool, worker: life.name, pid: life.pid, ...(o.runId ? { runId: o.runId } : {}) };
    if (life.crash)
      o.journal.add({
        kind: 'crash-point',
        ...who,
        at: life.crash.at,
        detail: `${life.crash.point}@${life.crash.occurrence}${life.crash.detail ? ` ${life.crash.detail}` : ''}`,
      });
    o.journal.add({
      kind: 'worker-exit',
      ...who,
      at: life.exitedAt ?? Date.now(),
      detail: life.signal
        ? `signal ${life.signal}`
        : `exit ${life.exitCode}${life.exitCode ? `: ${lastWords(life.logTail)}` : ''}`,
    });
  });
}

/** The line a dying worker ended on, without stack frames: enough to tell a crash from a refusal. */
export function lastWords(output: string): string {
  const lines = output.split('\n').filter((l) => l.trim() && !/^\s+at /.test(l) && !/^CRASHPOINT /.test(l));
  return ([...lines].reverse().find((l) => /error|refused|cannot|lost|lease|fenc/i.test(l)) ?? lines.at(-1) ?? '')
    .trim()
    .slice(0, 300);
}

/**
 * A worker armed to freeze at a point (`point:stop`) is woken by its pool `stopMs` after it froze,
 * as the pause strikes wake theirs; the pause is journaled so the row counts it.
 */
function wakeAfterStop(o: {
  journal: Journal;
  pool: string;
  worker: WorkerProcess;
  armed: Armed | null;
  runId?: string;
}): void {
  const stopMs = o.armed?.stopMs;
  if (!stopMs) return;
  o.worker.waitForStop(1, 24 * 3600_000).then(
    (line) => {
      const at = {
        pool: o.pool,
        worker: o.worker.life.name,
        pid: o.worker.pid,
        ...(o.runId ? { runId: o.runId } : {}),
      };
      o.journal.add({
        kind: 'pause',
        ...at,
        detail: `froze at ${line.point}@${line.occurrence} as armed, for ${stopMs} ms`,
      });
      setTimeout(() => {
        if (!o.worker.alive) return;
        o.worker.signal('SIGCONT');
        o.journal.add({ kind: 'resume', ...at, detail: 'SIGCONT' });
      }, stopMs).unref();
    },
    () => undefined, // it died or ended before reaching its point
  );
}
