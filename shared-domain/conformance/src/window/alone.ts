import { sleep } from '@vendor-review/worker-io';
import { busyBetween, cpuTimes } from '@vendor-review/instrument';
/**
 * The measured δ of a window cell alone on the machine: while one cell's worker A is between the
 * moment its δ starts and its death, every other worker the suite runs is frozen (SIGSTOP) and
 * woken (SIGCONT) after, whatever `--concurrency` says; one measured span at a time. Worker A waits
 * at its point for its turn (the instrument's hold, CRASH_HOLD_ENV) and goes on at the harness's
 * signal. The workers are frozen; the harness's own work for other cells (status polls, starting
 * runs and workers, reading records) waits at `quiet`; the servers, PostgreSQL and the world go on,
 * shared. Loading, setting up, resuming and judging run side by side between spans.
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
  /** Resolves once no span of a worker other than `own` runs: a cell's harness work waits here. */
  quiet(own?: readonly Freezable[]): Promise<void>;
}

export interface SpanOptions {
  /** Awaited once the others are frozen, before the span: what is still finishing (a commit, a poll's query) settles. */
  settle?: () => Promise<void>;
}

export function spanLock(o: SpanOptions = {}): SpanLock {
  const live = new Set<Freezable>();
  const frozen = new Set<Freezable>();
  let holder: Freezable | null = null;
  let turn: Promise<unknown> = Promise.resolve();
  let spanEnded: Promise<void> = Promise.resolve();
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
        let ended = () => {};
        spanEnded = new Promise((resolve) => (ended = resolve));
        holder = w;
        for (const other of live) freeze(other);
        try {
          await o.settle?.();
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
      while (holder && !own.includes(holder)) await spanEnded;
    },
  };
}

/**
 * Waits until the machine is idle: a `sampleMs` stretch in which at most a quarter of the CPU time
 * was busy (/proc/stat), for `maxMs` at the most. Frozen workers leave work behind them in the
 * servers and PostgreSQL (a commit's flush, a query under way); a span starts once it is done.
 */
export async function machineIdle(maxMs = 1_000, sampleMs = 30): Promise<void> {
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    const from = cpuTimes();
    await sleep(sampleMs);
    const busy = busyBetween(from, cpuTimes());
    if (!busy || busy.share === null || busy.share <= 0.25) return;
  }
}
