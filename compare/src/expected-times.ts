/**
 * How long each cell and hazard row is expected to take, for the lanes to start the longest first
 * (a run that ends on one long row while the other lanes sit idle wastes the rest). Measured, not
 * guessed: the wall time each row took in the last run written to the same report folder; for a
 * row it does not list (a first run), the median of that hazard over every runtime on the 2-core
 * machine (compare/MEASUREMENTS.md, "Where the time goes"). Only the order depends on these.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HazardId } from '@vendor-review/pipeline';

/** Median wall time of each hazard's rows, seconds, in the default run of 2026-12-02 (five runtimes, eight hazard lanes). */
const TYPICAL_HAZARD_SECONDS: Partial<Record<HazardId, number>> = {
  'rolling-deploy': 17,
  'nondeterministic-effect': 10,
  retention: 9,
  'retry-lost-workers': 8,
  'retry-lost-workers-exhausted': 7,
  'zombie-at-effect': 7,
  'two-writers': 6,
  'deploy-v1-state': 6,
  zombie: 6,
  'deploy-unknown-format': 6,
  'retry-exhausted': 4,
  'memory-lost': 4,
  'retry-transient': 3,
  'retry-permanent': 2,
  'bad-input': 1,
};

export interface ExpectedTimes {
  /** A crash cell by scenario id (the row's `cellId`). */
  cell(id: string): number | null;
  /** A hazard row by its scenario id ("zombie/temporal/naive") and hazard. */
  hazard(id: string, hazard: HazardId): number | null;
}

export function expectedTimes(reportDir: string): ExpectedTimes {
  const last = new Map<string, number>();
  const file = path.join(reportDir, 'results.json');
  try {
    if (existsSync(file)) {
      const rows = (JSON.parse(readFileSync(file, 'utf8')) as { rows?: unknown[] }).rows ?? [];
      for (const r of rows as Record<string, unknown>[]) {
        const wall = r.wallMs ?? (r.cellWallMs as { median?: unknown } | undefined)?.median;
        // A hazard row names its hazard, runtime and variant apart; its scenario id joins them.
        const id =
          r.suite === 'production' ? `${String(r.scenario)}/${String(r.runtime)}/${String(r.variant)}` : r.cellId;
        if (typeof id === 'string' && typeof wall === 'number') last.set(id, wall);
      }
    }
  } catch {
    // An unreadable earlier report only costs the order its figures would have given.
  }
  return {
    cell: (id) => last.get(id) ?? null,
    hazard: (id, hazard) => last.get(id) ?? (TYPICAL_HAZARD_SECONDS[hazard] ?? 0) * 1000,
  };
}
