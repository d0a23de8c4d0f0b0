/**
 * The one scheduler every harness runs its jobs through: at most `concurrency` at once, in the
 * order given, jobs that share an `exclusive` group never overlapping (two runs that would share
 * a resource the runtime does not partition). Results come back in the jobs' order; `onDone` is
 * called in finishing order. The first job that throws ends the whole batch with its error.
 */
export interface LaneOptions<T, R> {
  concurrency: number;
  exclusive?: (job: T) => string | null;
  onDone?: (result: R, done: number, total: number) => void;
}

export function inLanes<T, R>(jobs: readonly T[], o: LaneOptions<T, R>, run: (job: T) => Promise<R>): Promise<R[]> {
  const pending = jobs.map((job, index) => ({ job, index }));
  const results = new Array<R>(jobs.length);
  const busy = new Set<string>();
  const group = (job: T) => o.exclusive?.(job) ?? null;
  let running = 0;
  let done = 0;
  return new Promise((resolve, reject) => {
    const pump = () => {
      if (pending.length === 0 && running === 0) return resolve(results);
      while (running < Math.max(1, o.concurrency)) {
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
  });
}
