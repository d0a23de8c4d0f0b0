import { inLanes } from './lanes.ts';
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
  /** How long a cell is expected to take (ms, or null): the longest crashed cells start first. */
  expectedMs?: (job: MatrixJob) => number | null;
}

/**
 * `repeat`: how often every row runs, or how often each one does. Crash cells and hazard rows are
 * repeated alike (a hazard row has no baseline to put first).
 */
export function jobsFor<S extends object>(
  scenarios: readonly S[],
  repeat: number | ((s: S) => number),
): { scenario: S; repetition: number }[] {
  const times = typeof repeat === 'number' ? () => repeat : repeat;
  const most = Math.max(0, ...scenarios.map(times));
  const jobs: { scenario: S; repetition: number }[] = [];
  for (let r = 0; r < most; r++) for (const s of scenarios) if (r < times(s)) jobs.push({ scenario: s, repetition: r });
  // Baselines of every repetition first, then crashed cells; stable within each part.
  const baseline = (s: S) => 'crashPoint' in s && s.crashPoint === null;
  return [...jobs.filter((j) => baseline(j.scenario)), ...jobs.filter((j) => !baseline(j.scenario))];
}

export function runMatrix(jobs: MatrixJob[], o: MatrixOptions): Promise<CellObservation[]> {
  return inLanes(
    jobs,
    {
      concurrency: o.concurrency,
      ...(o.exclusiveGroup ? { exclusive: (j: MatrixJob) => o.exclusiveGroup!(j.scenario) } : {}),
      ...(o.onDone ? { onDone: o.onDone } : {}),
      // The baselines still go first, whatever the crashed cells are expected to take.
      ...(o.expectedMs
        ? { expectedMs: (j: MatrixJob) => (j.scenario.crashPoint === null ? Infinity : o.expectedMs!(j)) }
        : {}),
    },
    o.run,
  );
}
