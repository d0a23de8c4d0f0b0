/**
 * The one scheduler every harness runs its jobs through: at most `concurrency` at once, in the
 * order given (or longest expected first), jobs that share an `exclusive` group never overlapping
 * (two runs that would share a resource the runtime does not partition). Results come back in the
 * jobs' order; `onDone` is called in finishing order. The first job that throws ends the whole
 * batch with its error.
 */
export interface LaneOptions<T, R> {
  /** Jobs at once; a function is read again whenever a lane frees up, or `widen` settles. */
  concurrency: number | (() => number);
  /** Settles when `concurrency` may have grown (the lanes fill up at once, not at the next finish). */
  widen?: Promise<unknown>;
  /**
   * How long a job is expected to take (ms; unknown: null): the longest start first, so the batch
   * does not end on one long job while the other lanes sit idle. Unknown ones keep their order, after.
   */
  expectedMs?: (job: T) => number | null;
  exclusive?: (job: T) => string | null;
  onDone?: (result: R, done: number, total: number) => void;
}

export function inLanes<T, R>(jobs: readonly T[], o: LaneOptions<T, R>, run: (job: T) => Promise<R>): Promise<R[]> {
  const pending = jobs.map((job, index) => ({ job, index, expected: o.expectedMs?.(job) ?? null }));
  // Stable: equal or unknown expectations keep the order they were given in.
  if (o.expectedMs) pending.sort((a, b) => (b.expected ?? -1) - (a.expected ?? -1));
  const results = new Array<R>(jobs.length);
  const busy = new Set<string>();
  const group = (job: T) => o.exclusive?.(job) ?? null;
  const lanes = () => Math.max(1, typeof o.concurrency === 'function' ? o.concurrency() : o.concurrency);
  let running = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const pump = () => {
      if (pending.length === 0 && running === 0) return resolve(results);
      while (running < lanes()) {
        const at = pending.findIndex(({ job }) => {
          const g = group(job);
          return g === null || !busy.has(g);
        });
        if (at < 0) break;
        const { job, index } = pending.splice(at, 1)[0]!;
        const g = group(job);
        if (g) busy.add(g);
        running++;
        run(job).then((result) => {
          running--;
          if (g) busy.delete(g);
          results[index] = result;
          o.onDone?.(result, ++done, jobs.length);
          pump();
        }, reject);
      }
    };
    pump();
    o.widen?.then(pump, () => {});
  });
}
