import type { InFlightTask } from '../adapter.ts';
import type { WorkerProcess } from '@vendor-review/testbed';

/**
 * Lines up workers whose crash plan freezes them at the same points (`boundary:stop,…`), so that
 * they go on together however fast either would otherwise be. A worker frozen at a stop is
 * continued once every other live worker is frozen too, or cannot get where it is:
 * - the runtime has handed the run's work to a frozen worker (a lease, a task), so the others will
 *   be refused or get nothing: waiting for them would only hold the owner frozen past its lease
 *   or heartbeat timeout, and a zombie is another hazard;
 * - it serves a task queue and is polling it: the runtime, not the harness, decides who gets the
 *   task the frozen one holds.
 * A worker that has left (refused) is not waited for.
 */
export class LineUp {
  readonly #released = new Map<WorkerProcess, number>();

  constructor(
    private readonly workers: () => WorkerProcess[],
    private readonly inFlight: () => Promise<InFlightTask[]> = async () => [],
  ) {}

  /** True while some worker is frozen at a stop it has not been let go from. */
  holding(): boolean {
    return this.workers().some((w) => w.alive && w.stops.length > (this.#released.get(w) ?? 0));
  }

  /** One look: continue the frozen workers if everyone else is in place. */
  async step(): Promise<void> {
    const live = this.workers().filter((w) => w.alive);
    const frozen = live.filter((w) => w.stops.length > (this.#released.get(w) ?? 0));
    if (frozen.length === 0) return;
    const polling = (w: WorkerProcess) => w.life.readyAt !== null;
    if (!live.every((w) => frozen.includes(w) || polling(w))) {
      const owners = new Set((await this.inFlight()).map((t) => t.worker));
      if (!frozen.some((w) => owners.has(w.life.name))) return;
    }
    // Announced is not yet stopped: wait for the kernel to say so, or SIGCONT would come first.
    await Promise.all(frozen.map((w) => w.waitForStop(w.stops.length, 10_000).catch(() => undefined)));
    for (const w of frozen) {
      w.signal('SIGCONT');
      this.#released.set(w, w.stops.length);
    }
  }
}
