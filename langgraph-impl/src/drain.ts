/**
 * A worker asked to stop (SIGTERM: a deploy, a scale-in). A hardened run drains: it hands LangGraph
 * a RunControl, and once asked, LangGraph lets the node in flight finish, saves its checkpoint and
 * stops at the next superstep with GraphDrained; the worker then leaves (exit 0) and the run waits,
 * durable, for the next worker. A naive run installs nothing of ours: with no run holding the
 * drain, the process dies of the signal as Node does by default, which is a kill.
 */
export class WorkerDrain {
  readonly #asked = new AbortController();
  #holders = 0;

  /** Aborted once the worker is asked to stop. */
  get signal(): AbortSignal {
    return this.#asked.signal;
  }

  /** A run that will drain holds this while it runs; the returned function lets go. */
  hold(): () => void {
    this.#holders++;
    let held = true;
    return () => {
      if (held) this.#holders--;
      held = false;
    };
  }

  /** Asked to stop: true when some run is there to drain, false when nobody holds the drain. */
  request(reason: string): boolean {
    this.#asked.abort(new DrainedError(reason));
    return this.#holders > 0;
  }
}

/** A run stopped by a drain at a step boundary, its last step durable: another worker resumes it. */
export class DrainedError extends Error {
  override readonly name = 'DrainedError';
  constructor(readonly reason: string) {
    super(`asked to stop (${reason})`);
  }
}
