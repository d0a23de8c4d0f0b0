import type { InProcessBench, StorageLimits, StoredRun } from '@vendor-review/conformance';
import type { BenchContext } from './context.ts';
import type { Benched } from './benched.ts';
import { sizedRequest } from './requests.ts';
import { crossing, evaluate, polyfit } from './stats.ts';

/**
 * What a finished run leaves stored, by the size of the review, as each runtime's bench reads it
 * (LangGraph: rows per table; Temporal: its history's events and bytes, the largest payload). Each
 * size runs once per configuration: the bytes of a run do not vary from run to run (only ids and
 * timestamps do). From the sizes measured, a fit says where a bigger review would land and, for a
 * runtime whose bench names limits, where it would meet them.
 */
export const PROJECT_TO = 80;

export interface StorageCell extends StoredRun {
  runtime: string;
  mode: string;
  requirements: number;
  pagesPerRequirement: number | null;
}

export interface StorageProjection {
  runtime: string;
  mode: string;
  /** bytes = a + b·n + c·n², least squares over the sizes measured (c = 0: a line fitted better). */
  bytesFit: number[];
  bytesAt80: number;
  rowsAt80: number | null;
  eventsAt80: number | null;
  largestPayloadAt80: number | null;
  /** Where the runtime's limits are met (null: it names none, or the fit never reaches them). */
  requirementsAtHistoryLimit: number | null;
  requirementsAtEventLimit: number | null;
  requirementsAtPayloadLimit: number | null;
}

export interface StorageSection {
  sizes: number[];
  how: string;
  /** What each runtime's figures are, from its bench. */
  what: Record<string, string>;
  cells: StorageCell[];
  projections: StorageProjection[];
  /** The limits each runtime's bench names, by runtime. */
  limits: Record<string, StorageLimits>;
}

function project(cells: StorageCell[], limits: Record<string, StorageLimits>): StorageProjection[] {
  const groups = new Map<string, StorageCell[]>();
  for (const c of cells)
    if (c.ok && c.pagesPerRequirement === null)
      groups.set(`${c.runtime}:${c.mode}`, [...(groups.get(`${c.runtime}:${c.mode}`) ?? []), c]);
  const out: StorageProjection[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const { runtime, mode } = group[0]!;
    const limit = limits[runtime];
    const points = group.map((c): [number, number] => [c.requirements, c.bytes]);
    // Quadratic where the growth is (state passed again at every step); a curve bending down is noise on a line.
    const quadratic = group.length >= 3 ? polyfit(points, 2) : null;
    const bytesFit = quadratic && quadratic[2]! >= 0 ? quadratic : polyfit(points, 1);
    const linear = (pick: (c: StorageCell) => number | undefined) => {
      const pts = group.filter((c) => pick(c) !== undefined).map((c): [number, number] => [c.requirements, pick(c)!]);
      return pts.length >= 2 ? polyfit(pts, 1) : null;
    };
    const rows = linear((c) => c.rows);
    const events = linear((c) => c.events);
    const payload = linear((c) => c.largestPayloadBytes);
    const round = (x: number) => Math.round(x);
    out.push({
      runtime,
      mode,
      bytesFit: bytesFit.map((x) => Math.round(x * 100) / 100),
      bytesAt80: round(evaluate(bytesFit, PROJECT_TO)),
      rowsAt80: rows ? round(evaluate(rows, PROJECT_TO)) : null,
      eventsAt80: events ? round(evaluate(events, PROJECT_TO)) : null,
      largestPayloadAt80: payload ? round(evaluate(payload, PROJECT_TO)) : null,
      requirementsAtHistoryLimit: limit ? crossing(bytesFit, limit.historyBytes) : null,
      requirementsAtEventLimit: limit && events ? crossing(events, limit.historyEvents) : null,
      requirementsAtPayloadLimit: limit && payload ? crossing(payload, limit.payloadBytes) : null,
    });
  }
  return out;
}

export async function measureStorage(
  ctx: BenchContext,
  sessions: { b: Benched; s: InProcessBench }[],
): Promise<StorageSection> {
  const sizes = ctx.plan.storage.requirements;
  const stores = sessions.flatMap(({ b, s }) =>
    s.storage ? [{ runtime: b.info.name, title: b.info.title, storage: s.storage }] : [],
  );
  const jobs: { store: (typeof stores)[number]; mode: string; n: number; pages: number | null }[] = [];
  const largest = Math.max(...sizes);
  for (const n of sizes)
    for (const store of stores) for (const mode of store.storage.modes) jobs.push({ store, mode, n, pages: null });
  if (ctx.plan.storage.widePages)
    // The request schema's other size: every requirement reads up to five pages instead of three.
    for (const store of stores)
      for (const mode of store.storage.modes) jobs.push({ store, mode, n: largest, pages: 5 });
  const cells: StorageCell[] = [];
  for (const [i, j] of jobs.entries()) {
    const request = sizedRequest(ctx.infra.worldUrl, j.n, j.pages ? { pagesPerRequirement: j.pages } : {});
    const stored = await j.store.storage.measure(j.mode, request);
    const cell: StorageCell = {
      runtime: j.store.runtime,
      mode: j.mode,
      requirements: j.n,
      pagesPerRequirement: j.pages,
      ...stored,
    };
    cells.push(cell);
    ctx.log(
      `storage [${i + 1}/${jobs.length}] ${j.store.runtime} ${j.mode}, ${j.n} requirements${j.pages ? ` × ${j.pages} pages` : ''}: ` +
        `${cell.ok ? '' : 'FAILED, '}${(cell.bytes / 1024).toFixed(1)} KiB` +
        (cell.rows !== undefined ? `, ${cell.rows} rows` : '') +
        (cell.events !== undefined
          ? `, ${cell.events} events, largest payload ${((cell.largestPayloadBytes ?? 0) / 1024).toFixed(1)} KiB`
          : ''),
    );
  }
  const limits = Object.fromEntries(
    stores.flatMap((s) => (s.storage.limits ? [[s.runtime, s.storage.limits] as const] : [])),
  );
  return {
    sizes,
    how:
      `the cells' vendor (acme-analytics) with n requirements: its six kinds, then the kinds again under new ids (pricing-2, …) ` +
      `with the kind's question; the request schema takes at most 20, so ${PROJECT_TO} is projected from the fit, not run`,
    what: Object.fromEntries(stores.map((s) => [s.runtime, `${s.title}: ${s.storage.how}`])),
    cells,
    projections: project(cells, limits),
    limits,
  };
}
