import type { BenchContext } from './context.ts';
import { langGraphRun, temporalRun } from './in-process.ts';
import { sizedRequest } from './requests.ts';
import { crossing, evaluate, polyfit } from './stats.ts';

/**
 * What a finished run leaves stored, by the size of the review: LangGraph's rows per table
 * (checkpoints, blobs, pending writes, our provenance), Temporal's history (events, bytes, the
 * largest single payload). Each size runs once per configuration: the bytes of a run do not vary
 * from run to run (only ids and timestamps do). From the sizes measured, a fit says where a
 * bigger review would land and where it would meet Temporal's limits.
 */
export const TEMPORAL_LIMITS = {
  historyBytes: 50 * 1024 * 1024,
  historyEvents: 51_200,
  payloadBytes: 2 * 1024 * 1024,
};
export const PROJECT_TO = 80;

export interface StorageCell {
  runtime: 'langgraph' | 'temporal';
  mode: string;
  requirements: number;
  pagesPerRequirement: number | null;
  ok: boolean;
  bytes: number;
  /** LangGraph: rows and bytes per table. */
  tables?: { table: string; rows: number; bytes: number }[];
  rows?: number;
  /** Temporal: events, the largest payload, and the bytes of every activity's arguments together. */
  events?: number;
  largestPayloadBytes?: number;
  activityInputBytes?: number;
}

export interface StorageProjection {
  runtime: 'langgraph' | 'temporal';
  mode: string;
  /** bytes = a + b·n + c·n², least squares over the sizes measured (c = 0: a line fitted better). */
  bytesFit: number[];
  bytesAt80: number;
  rowsAt80: number | null;
  eventsAt80: number | null;
  largestPayloadAt80: number | null;
  requirementsAtHistoryLimit: number | null;
  requirementsAtEventLimit: number | null;
  requirementsAtPayloadLimit: number | null;
}

export interface StorageSection {
  sizes: number[];
  how: string;
  cells: StorageCell[];
  projections: StorageProjection[];
  limits: typeof TEMPORAL_LIMITS;
}

const LG_MODES = [
  { mode: 'exit', durability: 'exit', variant: 'naive' },
  { mode: 'sync', durability: 'sync', variant: 'naive' },
  { mode: 'hardened', durability: 'sync', variant: 'hardened' },
] as const;

async function measureOne(
  ctx: BenchContext,
  runtime: 'langgraph' | 'temporal',
  mode: string,
  n: number,
  pages: number | null,
  taskQueue: string | null,
): Promise<StorageCell> {
  const request = sizedRequest(ctx.infra.worldUrl, n, pages ? { pagesPerRequirement: pages } : {});
  const base = { runtime, mode, requirements: n, pagesPerRequirement: pages };
  if (runtime === 'langgraph') {
    const m = LG_MODES.find((x) => x.mode === mode)!;
    const run = await langGraphRun(ctx, request, { saver: 'postgres', durability: m.durability, variant: m.variant });
    const { threadStorage } = await import('@vendor-review/langgraph/bench');
    const tables = await threadStorage(ctx.lg!.pool, run.id);
    return {
      ...base,
      ok: run.ok,
      bytes: tables.reduce((s, t) => s + t.bytes, 0),
      rows: tables.reduce((s, t) => s + t.rows, 0),
      tables,
    };
  }
  const run = await temporalRun(ctx, taskQueue!, request, mode as 'naive' | 'hardened');
  const { historyFigures } = await import('@vendor-review/temporal/bench');
  const h = await historyFigures(ctx.tm!.client, run.id);
  return {
    ...base,
    ok: run.ok,
    bytes: h.bytes,
    events: h.events,
    largestPayloadBytes: h.largestPayloadBytes,
    activityInputBytes: h.activityInputBytes,
  };
}

function project(cells: StorageCell[]): StorageProjection[] {
  const groups = new Map<string, StorageCell[]>();
  for (const c of cells)
    if (c.ok && c.pagesPerRequirement === null)
      groups.set(`${c.runtime}:${c.mode}`, [...(groups.get(`${c.runtime}:${c.mode}`) ?? []), c]);
  const out: StorageProjection[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const { runtime, mode } = group[0]!;
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
      requirementsAtHistoryLimit: runtime === 'temporal' ? crossing(bytesFit, TEMPORAL_LIMITS.historyBytes) : null,
      requirementsAtEventLimit: events ? crossing(events, TEMPORAL_LIMITS.historyEvents) : null,
      requirementsAtPayloadLimit: payload ? crossing(payload, TEMPORAL_LIMITS.payloadBytes) : null,
    });
  }
  return out;
}

export async function measureStorage(
  ctx: BenchContext,
  temporal: { taskQueue: string } | null,
): Promise<StorageSection> {
  const sizes = ctx.plan.storage.requirements;
  const jobs: { runtime: 'langgraph' | 'temporal'; mode: string; n: number; pages: number | null }[] = [];
  const largest = Math.max(...sizes);
  for (const n of sizes) {
    if (ctx.lg) for (const m of LG_MODES) jobs.push({ runtime: 'langgraph', mode: m.mode, n, pages: null });
    if (ctx.tm && temporal)
      for (const mode of ['naive', 'hardened']) jobs.push({ runtime: 'temporal', mode, n, pages: null });
  }
  if (ctx.plan.storage.widePages) {
    // The request schema's other size: every requirement reads up to five pages instead of three.
    if (ctx.lg) for (const m of LG_MODES) jobs.push({ runtime: 'langgraph', mode: m.mode, n: largest, pages: 5 });
    if (ctx.tm && temporal)
      for (const mode of ['naive', 'hardened']) jobs.push({ runtime: 'temporal', mode, n: largest, pages: 5 });
  }
  const cells: StorageCell[] = [];
  for (const [i, j] of jobs.entries()) {
    const cell = await measureOne(ctx, j.runtime, j.mode, j.n, j.pages, temporal?.taskQueue ?? null);
    cells.push(cell);
    ctx.log(
      `storage [${i + 1}/${jobs.length}] ${j.runtime} ${j.mode}, ${j.n} requirements${j.pages ? ` × ${j.pages} pages` : ''}: ` +
        `${cell.ok ? '' : 'FAILED, '}${(cell.bytes / 1024).toFixed(1)} KiB` +
        (cell.rows !== undefined ? `, ${cell.rows} rows` : '') +
        (cell.events !== undefined
          ? `, ${cell.events} events, largest payload ${((cell.largestPayloadBytes ?? 0) / 1024).toFixed(1)} KiB`
          : ''),
    );
  }
  return {
    sizes,
    how:
      `the cells' vendor (acme-analytics) with n requirements: its six kinds, then the kinds again under new ids (pricing-2, …) ` +
      `with the kind's question; the request schema takes at most 20, so ${PROJECT_TO} is projected from the fit, not run`,
    cells,
    projections: project(cells),
    limits: TEMPORAL_LIMITS,
  };
}
