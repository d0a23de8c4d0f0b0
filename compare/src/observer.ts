import type { CellObservation, HazardObservation } from '@vendor-review/conformance';
import type { Infra } from './infra.ts';
import type { ReportDocument } from './report/document.ts';

/**
 * What watches a comparison from beside it: told of every run as it ends, asked at the end what it
 * has to show. `pnpm compare --profile` watches with the profiler (profile.ts); otherwise nobody
 * does (NO_OBSERVER), and no suite asks which.
 */
export interface RunObserver {
  /** A cell ended (any suite's). */
  cell(obs: CellObservation): void;
  /** A production hazard's run ended. */
  hazard(obs: HazardObservation): void;
  /** The comparison is over: what the observer saw, as a document beside the report; null: nothing to show. */
  report(run: ObservedRun): ReportDocument | null;
}

export interface ObservedRun {
  wallMs: number;
  infra: Pick<Infra, 'servers'>;
  /** The runtimes in table order. */
  runtimes: readonly string[];
  labelOf: (runtime: string) => string;
}

/** The observer that watches nothing. */
export const NO_OBSERVER: RunObserver = {
  cell: () => undefined,
  hazard: () => undefined,
  report: () => null,
};
