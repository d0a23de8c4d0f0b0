/**
 * A window cell's worker A alone on the machine: from its start to its death, every other worker
 * the suite runs is frozen (SIGSTOP) and woken (SIGCONT) after, whatever `--concurrency` says; one
 * measured life at a time. Not only the δ: a worker that ran up to its point beside others finds
 * its caches (and PostgreSQL's) taken by them, and its δ's commit is slower for it. The workers are
 * frozen; the harness's own work for other cells (status polls, starting runs and workers, reading
 * records) waits at `quiet`; the servers, PostgreSQL and the world go on, shared. Resuming and
 * judging run side by side between lives.
 */
export interface Freezable {
  signal(sig: NodeJS.Signals): void;
  readonly alive: boolean;
}

export interface SpanLock {
  /** A worker of some cell lives from now until the returned call: frozen while another's span runs. */
  track(w: Freezable): () => void;
  /**
   * Waits for its turn, freezes every tracked worker not in `own`, runs `span`, then wakes them.
   * `own` is the measured cell's workers, read live: one it starts during the span runs too.
   */
  alone<T>(own: readonly Freezable[], span: () => Promise<T>): Promise<T>;
  /** Resolves once no span of another cell runs (`own`: this cell's workers): a cell's harness work waits here. */
  quiet(own?: readonly Freezable[]): Promise<void>;
}

export function spanLock(): SpanLock {
  const live = new Set<Freezable>();
  const frozen = new Set<Freezable>();
  let holder: readonly Freezable[] | null = null;
  let turn: Promise<unknown> = Promise.resolve();
  let spanEnded: Promise<void> = Promise.resolve();
  const isHolder = (own: readonly Freezable[]) =>
    holder !== null && (own === holder || own.some((w) => holder!.includes(w)));
  const freeze = (w: Freezable): void => {
    if (!holder || holder.includes(w) || !w.alive) return;
    w.signal('SIGSTOP');
    frozen.add(w);
  };
  return {
    track(w) {
      live.add(w);
      // Started while another cell's span runs: frozen at once, before it can do much.
      freeze(w);
      return () => {
        live.delete(w);
        frozen.delete(w);
      };
    },
    alone<T>(own: readonly Freezable[], span: () => Promise<T>): Promise<T> {
      const mine = turn.then(async () => {
        let ended = () => {};
        spanEnded = new Promise((resolve) => (ended = resolve));
        holder = own;
        for (const other of live) freeze(other);
        try {
          return await span();
        } finally {
          holder = null;
          ended();
          for (const other of frozen) other.signal('SIGCONT');
          frozen.clear();
        }
      });
      turn = mine.catch(() => {});
      return mine;
    },
    async quiet(own = []) {
      // Another span may take the machine as soon as this one ends: wait until none of theirs holds it.
      while (holder && !isHolder(own)) await spanEnded;
    },
  };
}
