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
   * Beyond `concurrency`, up to `most` at once: one more job whenever `room()` says the machine has
   * room for it (its CPUs sat idle), asked at most once per `recheckMs` (default 1000), also while
   * no job finishes. Jobs that mostly wait then fill the CPU the others leave idle.
   */
  room?: () => boolean;
  most?: number;
  recheckMs?: number;
  /**
   * How long a job is expected to take (ms; unknown: null): the longest start first, so the batch
   * does not end on one long job while the other lanes sit idle. Unknown ones keep their order, after.
   */
  expectedMs?: (job: T) => number | null;
  exclusive?: (job: T) => string | null;
  onDone?: (result: R, done: number, total: number) => void;
}

export function inLanes<T, R>(jobs: readonly T[], o: LaneOptions<T, R>, run: (job: T) => Promise<R>): Promise<R[]> {
  const group = (job: T) => o.exclusive?.(job) ?? null;
  const pending = jobs.map((job, index) => ({ job, index, expected: o.expectedMs?.(job) ?? null }));
  // Jobs of one exclusive group run one after the other: the group is as long as all of them, and
  // starts by that length, or it ends the batch alone.
  const groupMs = new Map<string, number>();
  for (const p of pending) {
    const g = group(p.job);
    if (g !== null && p.expected !== null) groupMs.set(g, (groupMs.get(g) ?? 0) + p.expected);
  }
  const rank = (p: (typeof pending)[number]) => {
    const g = group(p.job);
    return g !== null && p.expected !== null ? groupMs.get(g)! : (p.expected ?? -1);
  };
  // Stable: equal or unknown expectations keep the order they were given in.
  if (o.expectedMs) pending.sort((a, b) => rank(b) - rank(a) || (b.expected ?? -1) - (a.expected ?? -1));
  const results = new Array<R>(jobs.length);
  const busy = new Set<string>();
  const lanes = () => Math.max(1, typeof o.concurrency === 'function' ? o.concurrency() : o.concurrency);
  let running = 0;
  let done = 0;
  let lastExtra = 0;
  const recheckMs = o.recheckMs ?? 1000;
  // One job beyond the lanes per look, and only when the machine has room: a reading of idle CPUs
  // says nothing yet of the job just started on it.
  const extra = () => !!o.room && running < (o.most ?? lanes()) && Date.now() - lastExtra >= recheckMs && o.room();
  return new Promise((resolve, reject) => {
    const recheck = o.room ? setInterval(() => pump(), recheckMs) : undefined;
    recheck?.unref();
    const pump = () => {
      if (pending.length === 0 && running === 0) {
        clearInterval(recheck);
        return resolve(results);
      }
      while (running < lanes() || extra()) {
        const at = pending.findIndex(({ job }) => {
          const g = group(job);
          return g === null || !busy.has(g);
        });
        if (at < 0) break;
        if (running >= lanes()) lastExtra = Date.now();
        const { job, index } = pending.splice(at, 1)[0]!;
        const g = group(job);
        if (g) busy.add(g);
        running++;
        run(job).then(
          (result) => {
            running--;
            if (g) busy.delete(g);
            results[index] = result;
            o.onDone?.(result, ++done, jobs.length);
            pump();
          },
          (err: unknown) => {
            clearInterval(recheck);
            reject(err);
          },
        );
      }
    };
    pump();
    o.widen?.then(pump, () => {});
  });
}
