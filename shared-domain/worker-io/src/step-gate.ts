/**
 * How a hardened worker of a journaling runtime (DBOS, Restate) leaves when asked to (SIGTERM: a
 * deploy, a scale-down): it starts no new step, lets the steps in flight finish and be journaled,
 * and then leaves the run unfinished for the process that replaces it to resume from the journal.
 * Without it the process dies at once and the paid call in flight runs again.
 */
export class StepGate {
  private inFlight = 0;
  private closed = false;
  private readonly idle: (() => void)[] = [];

  /** Waits forever once the gate is closed: the process leaves before the step starts. */
  async enter(): Promise<void> {
    if (this.closed) await new Promise<never>(() => {});
    this.inFlight++;
  }

  leave(): void {
    this.inFlight--;
    if (this.closed && this.inFlight === 0) for (const done of this.idle.splice(0)) done();
  }

  /** Resolves once no step is in flight any more. */
  close(): Promise<void> {
    this.closed = true;
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }
}
