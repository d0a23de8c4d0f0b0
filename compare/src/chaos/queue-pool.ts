import type { Variant } from '@vendor-review/pipeline';
import type { RuntimeAdapter, WorkerSpec } from '@vendor-review/conformance';
import type { WorkerProcess } from '@vendor-review/testbed';
import { PoolProcesses, type Pool, type PoolContext, type PoolRun } from './pool.ts';
import type { Armed } from './schedule.ts';

/** How long a new queue worker gets to say it polls (a loaded two-core machine starts them slowly). */
const READY_TIMEOUT_MS = 180_000;

/**
 * A fixed number of worker processes polling one task queue (Temporal): runs are not handed to a
 * process, the server hands their tasks to whichever worker polls, and it notices a dead or frozen
 * one by itself (the heartbeat timeout). The pool only keeps the number of processes up, as
 * systemd's Restart=always would: a process that exits is replaced by the next incarnation of its
 * slot, whose crash plan the schedule decides.
 */
export class QueuePool extends PoolProcesses implements Pool {
  readonly id: string;
  readonly runtime: string;
  readonly #slots: { current: WorkerProcess | null; incarnation: number }[];

  constructor(
    readonly adapter: RuntimeAdapter,
    readonly variant: Variant,
    private readonly ctx: PoolContext,
    private readonly o: {
      short: string;
      size: number;
      spec: (name: string, crashPlan: string | null) => WorkerSpec;
      planFor: (slot: number, incarnation: number) => Armed | null;
    },
  ) {
    super();
    this.runtime = adapter.name;
    this.id = `${adapter.name}/${variant}`;
    this.#slots = Array.from({ length: o.size }, () => ({ current: null, incarnation: -1 }));
  }

  /** Every slot's first process, polling before the first run is started. */
  async start(): Promise<void> {
    const started = await Promise.all(this.#slots.map((_, i) => this.#startSlot(i)));
    await Promise.all(started.map((w) => w.waitForLine(/\bWORKER READY\b/, READY_TIMEOUT_MS)));
  }

  async recycle(): Promise<void> {
    await this.hold();
    this.release();
    await this.start();
  }

  async #startSlot(i: number): Promise<WorkerProcess> {
    const slot = this.#slots[i]!;
    slot.incarnation += 1;
    const name = `${this.o.short}-w${i}.${slot.incarnation}`;
    const w = await this.startWorker({
      name,
      armed: this.o.planFor(i, slot.incarnation),
      spec: (crashPlan) => this.o.spec(name, crashPlan),
      ctx: this.ctx,
    });
    slot.current = w;
    return w;
  }

  async admit(_run: PoolRun): Promise<void> {
    // The run's tasks are in the queue; whichever worker polls takes them.
  }

  async tick(): Promise<void> {
    for (const [i, slot] of this.#slots.entries()) {
      if (this.held || this.stopped) return;
      if (!slot.current?.alive) await this.#startSlot(i);
    }
  }

  servedBy(_runId: string): WorkerProcess[] {
    return this.workers;
  }

  gaveUp(_runId: string): boolean {
    return false; // a queue worker never gives a run up: the server keeps handing its tasks out
  }

  runOf(_w: WorkerProcess): string | null {
    return null;
  }
}
