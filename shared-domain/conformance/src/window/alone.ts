/**
 * The measured δ of a window cell alone on the machine: while one cell's worker A is between the
 * moment its δ starts and its death, every other worker the suite runs is frozen (SIGSTOP) and
 * woken (SIGCONT) after, whatever `--concurrency` says; one measured span at a time. Worker A waits
 * at its point for its turn (the instrument's hold, CRASH_HOLD_ENV) and goes on at the harness's
 * signal. Only the workers are frozen: the servers, PostgreSQL and the harness (the world in it)
 * go on, shared; loading, setting up, resuming and judging run side by side between spans.
 */
export interface Freezable {
  signal(sig: NodeJS.Signals): void;
  readonly alive: boolean;
}

export interface SpanLock {
  /** A worker of some cell lives from now until the returned call: frozen while another's span runs. */
  track(w: Freezable): () => void;
  /** Waits for its turn, freezes every other tracked worker, runs `span` (it lets `holder` go on), then wakes them. */
  alone<T>(holder: Freezable, span: () => Promise<T>): Promise<T>;
}

export function spanLock(): SpanLock {
  const live = new Set<Freezable>();
  const frozen = new Set<Freezable>();
  let holder: Freezable | null = null;
  let turn: Promise<unknown> = Promise.resolve();
  const freeze = (w: Freezable): void => {
    if (w === holder || !w.alive) return;
    w.signal('SIGSTOP');
    frozen.add(w);
  };
  return {
    track(w) {
      live.add(w);
      // Started while a span runs: frozen at once, before it can do much.
      if (holder) freeze(w);
      return () => {
        live.delete(w);
        frozen.delete(w);
      };
    },
    alone<T>(w: Freezable, span: () => Promise<T>): Promise<T> {
      const mine = turn.then(async () => {
        holder = w;
        for (const other of live) freeze(other);
        try {
          return await span();
        } finally {
          holder = null;
          for (const other of frozen) other.signal('SIGCONT');
          frozen.clear();
        }
      });
      turn = mine.catch(() => {});
      return mine;
    },
  };
}
