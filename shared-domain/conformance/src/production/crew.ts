import type { RunHandle, RuntimeAdapter } from '../adapter.ts';
import { WorkerProcess, type WorkerSpec } from '@vendor-review/testbed';
import { notNowPauseMs } from './supervisor.ts';

/**
 * The worker processes of one hazard run, by name, kept as a supervisor keeps them: each name has
 * one current process, and one that left with the runtime's "not now" exit (LangGraph hardened:
 * another worker holds the run's lease) may be started again under the same name and crash plan.
 * Every process ever started stays listed, for the follow loop, the figures and the teardown.
 * Not supervise() (supervisor.ts): here several workers race for one run at once, the drill decides
 * who starts when, and it reports a death (workerGone) only at the moment its race needs it.
 */
export class Crew {
  readonly all: WorkerProcess[] = [];
  readonly #current = new Map<string, { worker: WorkerProcess; plan: string | null }>();
  /** A refused process's next try: not before this (epoch ms; unknown yet: infinity). */
  readonly #notBefore = new Map<WorkerProcess, number>();

  constructor(
    private readonly adapter: RuntimeAdapter,
    private readonly handle: RunHandle,
  ) {}

  /** Starts `name` from the runtime's worker spec, or from `spec` (that spec routed through a network cut). */
  start(
    name: string,
    crashPlan: string | null,
    spec: WorkerSpec = this.adapter.workerSpec(this.handle, { name, crashPlan }),
  ): WorkerProcess {
    const worker = new WorkerProcess(name, spec);
    this.all.push(worker);
    this.#current.set(name, { worker, plan: crashPlan });
    return worker;
  }

  /** The current process of each name. */
  current(): WorkerProcess[] {
    return [...this.#current.values()].map((c) => c.worker);
  }

  get(name: string): WorkerProcess {
    const c = this.#current.get(name);
    if (!c) throw new Error(`no worker ${name} was started`);
    return c.worker;
  }

  /** True when the current process of `name` has left with the runtime's "not now" exit code. */
  refused(name: string): boolean {
    const w = this.get(name);
    return !w.alive && this.adapter.isRetryableExit(w.life.exitCode);
  }

  /**
   * Starts `name` again, with its plan, if it was refused and what refused it has lapsed by now
   * (notNowPauseMs: a dead worker's lease, as the runtime's record says), as a supervisor waits
   * before the next try instead of restarting into the same refusal; true when it did. Asked
   * again and again by a drill's loop, it restarts at the first ask past the pause.
   */
  restartIfRefused(name: string): boolean {
    if (!this.refused(name)) return false;
    const refused = this.get(name);
    const notBefore = this.#notBefore.get(refused);
    if (notBefore === undefined) {
      this.#notBefore.set(refused, Number.POSITIVE_INFINITY);
      void notNowPauseMs(this.adapter, this.handle).then((ms) =>
        this.#notBefore.set(refused, (refused.life.exitedAt ?? Date.now()) + ms),
      );
      return false;
    }
    if (Date.now() < notBefore) return false;
    this.start(name, this.#current.get(name)!.plan);
    return true;
  }

  /** How often each name was refused ("not now"), over all its processes. */
  refusals(name?: string): number {
    return this.all.filter(
      (w) => (name === undefined || w.life.name === name) && !w.alive && this.adapter.isRetryableExit(w.life.exitCode),
    ).length;
  }

  /**
   * The end of the run: workers that leave by themselves get `graceMs` to do so; the rest (workers
   * that serve a queue until told) are asked to stop, and killed if they do not.
   */
  async finish(graceMs: number): Promise<void> {
    const live = this.all.filter((w) => w.alive);
    if (this.adapter.workerExitsWhenDone) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise((r) => (timer = setTimeout(r, graceMs)));
      await Promise.race([Promise.all(live.map((w) => w.exited)), bound]);
      clearTimeout(timer);
    }
    await Promise.all(live.map((w) => w.stop(Math.min(graceMs, 10_000))));
  }

  /** Teardown: nothing this crew started outlives the hazard. */
  async kill(): Promise<void> {
    await Promise.all(this.all.map((w) => w.kill()));
  }
}
