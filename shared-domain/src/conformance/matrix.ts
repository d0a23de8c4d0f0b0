import type { CellObservation } from './observation.ts';
import type { Scenario } from './scenarios.ts';

/**
 * Runs the cells: baselines first (every crashed cell is judged against one), then the rest, at
 * most `concurrency` at once. Cells that share an `exclusive` group never overlap — used where two
 * runs would otherwise share a resource the runtime does not partition (see exclusiveGroup).
 */
export interface MatrixJob {
  scenario: Scenario;
  repetition: number;
}

export interface MatrixOptions {
  concurrency: number;
  run: (job: MatrixJob) => Promise<CellObservation>;
  /** Called as each cell finishes, in finishing order. */
  onDone?: (obs: CellObservation, done: number, total: number) => void;
  exclusiveGroup?: (s: Scenario) => string | null;
}

/** `repeat`: how often every cell runs, or how often each one does. */
export function jobsFor(scenarios: Scenario[], repeat: number | ((s: Scenario) => number)): MatrixJob[] {
  const times = typeof repeat === 'number' ? () => repeat : repeat;
  const most = Math.max(0, ...scenarios.map(times));
  const jobs: MatrixJob[] = [];
  for (let r = 0; r < most; r++) for (const s of scenarios) if (r < times(s)) jobs.push({ scenario: s, repetition: r });
  // Baselines of every repetition first, then crashed cells; stable within each part.
  return [...jobs.filter((j) => j.scenario.crashPoint === null), ...jobs.filter((j) => j.scenario.crashPoint !== null)];
}

export async function runMatrix(jobs: MatrixJob[], o: MatrixOptions): Promise<CellObservation[]> {
  const pending = [...jobs];
  const results: CellObservation[] = [];
  const busyGroups = new Set<string>();
  const group = (j: MatrixJob) => o.exclusiveGroup?.(j.scenario) ?? null;
  let running = 0;
  let done = 0;

  return new Promise((resolve, reject) => {
    const pump = () => {
      if (pending.length === 0 && running === 0) return resolve(results);
      while (running < o.concurrency) {
        const idx = pending.findIndex((j) => {
          const g = group(j);
          return g === null || !busyGroups.has(g);
        });
        if (idx < 0) break;
        const job = pending.splice(idx, 1)[0]!;
        const g = group(job);
        if (g) busyGroups.add(g);
        running++;
        o.run(job).then(
          (obs) => {
            running--;
            if (g) busyGroups.delete(g);
            results.push(obs);
            done++;
            o.onDone?.(obs, done, jobs.length);
            pump();
          },
          (err) => reject(err),
        );
      }
    };
    pump();
  });
}
