/**
 * How long each cell and hazard row is expected to take, for the lanes to start the longest first
 * (a run that ends on one long row while the other lanes sit idle wastes the rest: Temporal naive's
 * `retry-lost-workers-exhausted` alone takes over a minute of its own backoff). Measured, not
 * guessed: the wall time each row took in the last run written to the same report folder; for a
 * first run, in the default run recorded in expected-times.json (`pnpm --dir compare run
 * expected-times <results.json>` writes it); for a row neither lists (a runtime added since), the
 * median of the same hazard's rows there. Only the order depends on these.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HazardId } from '@vendor-review/conformance';
import { median } from './report/results.ts';

/** The default run's wall time per row, ms, keyed by row id (`cellId`; a hazard's `<hazard>/<runtime>/<variant>`). */
export type RowTimes = Record<string, number>;

export const RECORDED_TIMES = fileURLToPath(new URL('./expected-times.json', import.meta.url));

export interface ExpectedTimes {
  /** A crash cell by scenario id (the row's `cellId`). */
  cell(id: string): number | null;
  /** A hazard row by its scenario id ("zombie/temporal/naive") and hazard. */
  hazard(id: string, hazard: HazardId): number | null;
}

/** Each row's wall time in a results.json (an unreadable one gives none: it only costs the order). */
export function rowTimes(resultsJson: string): RowTimes {
  const times: RowTimes = {};
  try {
    if (!existsSync(resultsJson)) return times;
    const rows = (JSON.parse(readFileSync(resultsJson, 'utf8')) as { rows?: unknown[] }).rows ?? [];
    for (const r of rows as Record<string, unknown>[]) {
      const wall = r.wallMs ?? (r.cellWallMs as { median?: unknown } | undefined)?.median;
      const id =
        r.suite === 'production' ? `${String(r.scenario)}/${String(r.runtime)}/${String(r.variant)}` : r.cellId;
      if (typeof id === 'string' && typeof wall === 'number') times[id] = wall;
    }
  } catch {
    // as if there were none
  }
  return times;
}

function recorded(): RowTimes {
  try {
    return JSON.parse(readFileSync(RECORDED_TIMES, 'utf8')) as RowTimes;
  } catch {
    return {};
  }
}

export function expectedTimes(reportDir: string, shipped: RowTimes = recorded()): ExpectedTimes {
  const last = rowTimes(path.join(reportDir, 'results.json'));
  const known = (id: string) => last[id] ?? shipped[id] ?? null;
  const byHazard = (hazard: string) =>
    median(
      Object.entries(shipped)
        .filter(([id]) => id.startsWith(`${hazard}/`))
        .map(([, ms]) => ms),
    );
  return {
    cell: known,
    hazard: (id, hazard) => known(id) ?? byHazard(hazard),
  };
}
