/**
 * `pnpm bench`: figures, no verdicts. Per runtime: the wall time of an uncrashed run, a worker's
 * cold start, crash-to-progress after a kill at after-model (median/min/max over N), the peak
 * memory of worker processes; and the plain in-process runner as the floor, i.e. what the same
 * pipeline costs with no durability at all. Cells run one at a time so they do not time each other.
 *
 *   pnpm bench [--repeat N] [--runtime langgraph,temporal] [--json]
 */
import { z } from 'zod';
import { createHttpPorts, runPlain } from '@vendor-review/domain';
import type { RuntimeAdapter } from '@vendor-review/domain';
import {
  baselineIdFor,
  cellRequest,
  computeEvidence,
  runCell,
  scenarioId,
  type CellObservation,
  type Scenario,
} from '@vendor-review/domain/conformance';
import { parseCli, runCli, UsageError } from '@vendor-review/domain/infra';
import { startInfra } from './infra.ts';
import { median } from './report/results.ts';
import { RUNTIME_NAMES } from './runtimes.ts';
import { seconds } from './table.ts';

const Options = z.object({
  repeat: z.coerce.number().int().min(1).max(50).default(3),
  runtime: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').map((x) => x.trim()) : ['langgraph', 'temporal']))
    .pipe(z.array(z.enum(RUNTIME_NAMES as [string, ...string[]])).min(1)),
  json: z.boolean().default(false),
});

interface Stat {
  n: number;
  medianMs: number | null;
  minMs: number | null;
  maxMs: number | null;
}

function stat(xs: number[]): Stat {
  return {
    n: xs.length,
    medianMs: median(xs),
    minMs: xs.length ? Math.min(...xs) : null,
    maxMs: xs.length ? Math.max(...xs) : null,
  };
}

export interface BenchFigures {
  runtime: string;
  uncrashedRunMs: Stat;
  workerColdStartMs: Stat;
  crashToProgressMs: Stat;
  peakWorkerRssMb: number | null;
  failedCells: number;
}

/** A worker is "started" once it reports ready (Temporal prints READY) or, failing that, makes its first call to the world. */
function coldStartMs(o: CellObservation): number | null {
  const a = o.workers[0];
  if (!a) return null;
  if (a.readyAt) return a.readyAt - a.startedAt;
  const first = o.ledger.find((e) => e.worker === a.name);
  return first ? first.at - a.startedAt : null;
}

function scenario(adapter: RuntimeAdapter, crashPoint: Scenario['crashPoint']): Scenario {
  const runtime = adapter.name;
  // LangGraph naive in sync: the one mode whose after-model behaviour does not depend on timing.
  const durability = runtime === 'langgraph' ? 'sync' : null;
  return {
    id: scenarioId(runtime, 'naive', durability, crashPoint),
    runtime,
    variant: 'naive',
    durability,
    crashPoint,
    baselineId: baselineIdFor(adapter, 'naive'),
    faults: [],
  };
}

async function benchRuntime(
  adapter: RuntimeAdapter,
  worldUrl: string,
  repeat: number,
  log: (l: string) => void,
): Promise<BenchFigures> {
  const request = cellRequest(worldUrl);
  const deps = { adapter, worldUrl, request, boundMs: 120_000 };
  const baselines: CellObservation[] = [];
  const crashed: CellObservation[] = [];
  for (let i = 0; i < repeat; i++) {
    const b = await runCell(scenario(adapter, null), i, deps);
    baselines.push(b);
    log(`bench: ${adapter.name} uncrashed #${i + 1}: ${b.status} in ${seconds(b.endedAt - b.startedAt)}`);
  }
  for (let i = 0; i < repeat; i++) {
    const c = await runCell(scenario(adapter, 'after-model'), i, deps);
    crashed.push(c);
    const e = computeEvidence(c, baselines.find((b) => b.status === 'completed') ?? null);
    log(`bench: ${adapter.name} after-model #${i + 1}: ${c.status}, crash → progress ${seconds(e.recoveryMs)}`);
  }
  const all = [...baselines, ...crashed];
  const ok = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
  const rss = ok(all.flatMap((o) => o.workers.map((w) => w.peakRssKb)));
  return {
    runtime: adapter.name,
    uncrashedRunMs: stat(baselines.filter((b) => b.status === 'completed').map((b) => b.endedAt - b.startedAt)),
    workerColdStartMs: stat(ok(all.map(coldStartMs))),
    crashToProgressMs: stat(
      ok(crashed.filter((c) => c.crash).map((c) => computeEvidence(c, baselines[0] ?? null).recoveryMs)),
    ),
    peakWorkerRssMb: rss.length ? Math.round(Math.max(...rss) / 1024) : null,
    failedCells: all.filter((o) => o.status !== 'completed').length,
  };
}

async function benchPlain(worldUrl: string, repeat: number): Promise<BenchFigures> {
  const ports = createHttpPorts({ worldUrl });
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < repeat; i++) {
    const t = Date.now();
    const r = await runPlain(cellRequest(worldUrl), ports, { worker: 'plain' });
    times.push(Date.now() - t);
    if (r.failed) failed++;
  }
  const none: Stat = { n: 0, medianMs: null, minMs: null, maxMs: null };
  return {
    runtime: 'plain',
    uncrashedRunMs: stat(times),
    workerColdStartMs: none,
    crashToProgressMs: none,
    peakWorkerRssMb: null,
    failedCells: failed,
  };
}

function fmt(s: Stat): string {
  if (!s.n) return '—';
  return s.n === 1 ? seconds(s.medianMs) : `${seconds(s.medianMs)} (${seconds(s.minMs)}–${seconds(s.maxMs)})`;
}

export function renderBench(figures: BenchFigures[], repeat: number): string {
  const head = ['runtime', 'uncrashed run', 'worker cold start', 'crash → progress', 'peak worker RSS'];
  const rows = figures.map((f) => [
    f.runtime === 'plain' ? 'plain (no durability)' : f.runtime,
    fmt(f.uncrashedRunMs),
    fmt(f.workerColdStartMs),
    fmt(f.crashToProgressMs),
    f.peakWorkerRssMb === null ? '—' : `${f.peakWorkerRssMb} MB`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(head),
    widths.map((w) => '─'.repeat(w)).join('  '),
    ...rows.map(line),
    '',
    `median (min–max) over ${repeat} run(s) each · uncrashed run = create → completed, incl. starting the worker · crash → progress after a kill at after-model`,
    ...figures
      .filter((f) => f.failedCells)
      .map((f) => `note: ${f.failedCells} ${f.runtime} cell(s) did not complete; their timings are left out`),
  ].join('\n');
}

const USAGE = `usage: pnpm bench [--repeat N] [--runtime ${RUNTIME_NAMES.join(',')}] [--json]
  --repeat N        runs per figure (default 3)
  --runtime list    which runtimes (default: langgraph,temporal; the plain runner is always the floor)
  --json            print only JSON on stdout`;

async function main(): Promise<number> {
  const { values } = parseCli({
    usage: USAGE,
    options: { repeat: { type: 'string' }, runtime: { type: 'string' }, json: { type: 'boolean' } },
  });
  const parsed = Options.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]!.message);
  const opts = parsed.data;
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const started = Date.now();
  const infra = await startInfra({ runtimes: opts.runtime, log });
  const figures: BenchFigures[] = [];
  try {
    figures.push(await benchPlain(infra.worldUrl, opts.repeat));
    for (const { adapter } of infra.runtimes.values())
      figures.push(await benchRuntime(adapter, infra.worldUrl, opts.repeat, log));
  } finally {
    await infra.teardown();
  }
  if (opts.json) process.stdout.write(`${JSON.stringify({ figures, wallTimeMs: Date.now() - started }, null, 2)}\n`);
  else process.stdout.write(`${renderBench(figures, opts.repeat)}\nwall time: ${seconds(Date.now() - started)}\n`);
  return 0;
}

runCli('bench', main);
