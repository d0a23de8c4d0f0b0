import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './context.ts';

/**
 * The harness itself: the default `pnpm compare`, run as a user runs it (its own infrastructure,
 * every suite and runtime), timed from outside. Where its wall time goes: bringing the
 * infrastructure and the bundles up, the cells (their seconds summed per runtime: four run at
 * once), and what is left after the last cell (the report, the teardown).
 */
export interface HarnessSection {
  command: string;
  exitCode: number | null;
  wallMs: number;
  /** Spawn → "infrastructure ready": the world, PostgreSQL, Temporal, the tables and the bundles. */
  infrastructureMs: number | null;
  /** What had to be built, as compare reported it ("… from cache", "… built in 6.1 s"). */
  bundles: string[];
  /** Infrastructure ready → the last cell or hazard reported. */
  cellsMs: number | null;
  /** The last cell → exit: the report written, everything torn down. */
  tailMs: number | null;
  byRuntime: {
    runtime: string;
    crashCells: number;
    crashCellSeconds: number;
    hazards: number;
    hazardSeconds: number;
  }[];
  cells: number;
}

const COMPARE = fileURLToPath(new URL('../compare.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));

interface Row {
  suite: 'crash' | 'production';
  runtime: string;
  cellWallMs?: { median: number };
  repetitions?: number;
  wallMs?: number;
}

export async function measureHarness(ctx: BenchContext): Promise<HarnessSection> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-compare-'));
  const args = ['--import', 'tsx', COMPARE, '--json', '--report-dir', dir];
  ctx.log('harness: running the default `pnpm compare` (its own infrastructure; a few minutes)…');
  const started = Date.now();
  let infraReady: number | null = null;
  let lastCell: number | null = null;
  const bundles: string[] = [];
  let progress = 0;
  const child = spawn(process.execPath, args, {
    cwd: PACKAGE,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let partial = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (/infrastructure ready/.test(line)) infraReady ??= Date.now();
      if (/^world: /.test(line)) bundles.push(...line.split(' · ').slice(1));
      if (/^\[(hazard )?\d+\/\d+\]/.test(line)) {
        lastCell = Date.now();
        if (++progress % 10 === 0) ctx.log(`harness: ${line.slice(0, 100)}`);
      }
    }
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const ended = Date.now();
  let rows: Row[] = [];
  try {
    rows = (JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as { rows: Row[] }).rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const runtimes = [...new Set(rows.map((r) => r.runtime))];
  const byRuntime = runtimes.map((runtime) => {
    const crash = rows.filter((r) => r.runtime === runtime && r.suite === 'crash');
    const hazards = rows.filter((r) => r.runtime === runtime && r.suite === 'production');
    return {
      runtime,
      crashCells: crash.reduce((n, r) => n + (r.repetitions ?? 1), 0),
      crashCellSeconds:
        Math.round(crash.reduce((s, r) => s + (r.cellWallMs?.median ?? 0) * (r.repetitions ?? 1), 0) / 100) / 10,
      hazards: hazards.length,
      hazardSeconds: Math.round(hazards.reduce((s, r) => s + (r.wallMs ?? 0), 0) / 100) / 10,
    };
  });
  const last = lastCell as number | null;
  return {
    command: 'pnpm compare (default: every suite, every runtime)',
    exitCode,
    wallMs: ended - started,
    infrastructureMs: infraReady === null ? null : infraReady - started,
    bundles,
    cellsMs: infraReady !== null && last !== null ? last - infraReady : null,
    tailMs: last === null ? null : ended - last,
    byRuntime,
    cells: rows.length,
  };
}
