import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchReport } from '../src/bench/report.ts';

/**
 * `pnpm bench --smoke --json`, for real: every section on the smallest inputs, so the bench cannot
 * rot. It checks the report's shape, that every figure is there and positive, and the orderings
 * that physics (or the data) decides, never how fast anything is: this machine is shared and a
 * timing threshold would only measure the neighbours.
 */
const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'bench-smoke-'));
let report: BenchReport;
let exitCode: number | null;
let stderr = '';

beforeAll(async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/bench/cli.ts', '--smoke', '--json', '--report-dir', dir],
    { cwd: PACKAGE, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  exitCode = await new Promise((resolve) => child.on('close', resolve));
  try {
    report = JSON.parse(stdout) as BenchReport;
  } catch (err) {
    throw new Error(
      `stdout is not only the JSON report (${(err as Error).message}); it begins: ${stdout.slice(0, 400)}`,
    );
  }
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const positive = (n: number | null | undefined) => expect(n, String(n)).toBeGreaterThan(0);

describe('pnpm bench --smoke --json', () => {
  it('exits 0, prints only JSON on stdout and progress on stderr, and writes its three files', () => {
    expect(exitCode, stderr.slice(-2000)).toBe(0);
    expect(stderr).toMatch(/per-step: round 1\//);
    for (const f of ['bench.json', 'bench.md', 'bench.html']) expect(existsSync(path.join(dir, f)), f).toBe(true);
    const html = readFileSync(path.join(dir, 'bench.html'), 'utf8');
    expect(html.match(/<svg /g)?.length).toBe(4);
    // Self-contained: nothing fetched from anywhere (the SVG namespace is a name, not a request).
    expect(html.replaceAll('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/(src|href)="?https?:/);
  });

  it('records the machine, the versions and the units, each measured', () => {
    expect(report.meta.machine.cpus).toBeGreaterThan(0);
    expect(report.meta.versions.node).toBe(process.versions.node);
    // Every runtime measured names the libraries it ran on, each with an installed version.
    for (const libs of Object.values(report.meta.versions.runtimes)) {
      expect(Object.keys(libs).length).toBeGreaterThan(0);
      for (const v of Object.values(libs)) expect(v).toMatch(/^\d+\.\d+/);
    }
    expect(report.meta.versions.postgres).toMatch(/^\d+/);
    positive(report.pgCommitUs?.median);
    const u = report.units!;
    // A commit waits for the WAL to reach the disk; a SELECT 1 does not.
    expect(u.pgCommitUs.median).toBeGreaterThan(u.pgRoundTripUs.median);
    // An activity is several round trips to a server that persists each of them.
    const activity = u.own.find((o) => o.key === 'temporal:activity');
    expect(activity?.us.median).toBeGreaterThan(u.pgRoundTripUs.median);
  });

  it('gives perStepUs for every runtime and mode, from runs that completed', () => {
    const modes: Record<string, string[]> = {
      plain: ['none'],
      langgraph: [
        ...['memory', 'exit', 'async', 'sync'].flatMap((m) => [`bare-${m}`, `replay-${m}`, `ours-${m}`, m]),
        'ours-hardened',
        'hardened',
      ],
      temporal: ['bare', 'replay-naive', 'naive', 'replay-hardened', 'hardened'],
    };
    for (const [runtime, list] of Object.entries(modes))
      for (const mode of list) {
        const m = report.runtimes[runtime]?.[mode];
        expect(m?.perStepUs, `${runtime} ${mode}`).toBeTruthy();
        positive(m!.perStepUs!.median);
        expect(m!.perStepUs!.p95).toBeGreaterThanOrEqual(m!.perStepUs!.median);
      }
    for (const row of report.perStep!.rows) expect(row.failed, `${row.id}: ${row.failures.join('; ')}`).toBe(0);
  });

  it('gives throughput through worker processes: every review done, CPU and commits counted', () => {
    for (const runtime of ['langgraph', 'temporal']) {
      const cells = report.runtimes[runtime]!.hardened!.throughput!;
      expect(cells.length).toBeGreaterThan(0);
      for (const c of cells) {
        positive(c.reviewsPerSecond);
        positive(c.cpuSecondsPerReview);
        positive(c.pgCommitsPerReview);
      }
    }
    for (const c of report.throughput!) expect(c.completed, c.failures.join('; ')).toBe(c.reviews);
    for (const c of report.runtimes.temporal!.hardened!.throughput!) positive(c.historyEventsPerReview);
  });

  it('gives bytesPerRun by size, growing with the size, and the slices store less than the whole state', () => {
    const sizes = report.storage!.sizes;
    for (const [runtime, modes] of [
      ['langgraph', ['exit', 'sync', 'hardened']],
      ['temporal', ['naive', 'hardened']],
    ] as const)
      for (const mode of modes) {
        const bytes = sizes.map((n) => report.runtimes[runtime]![mode]!.bytesPerRun![String(n)]!);
        bytes.forEach((b) => positive(b));
        for (let i = 1; i < bytes.length; i++) expect(bytes[i], `${runtime} ${mode}`).toBeGreaterThan(bytes[i - 1]!);
      }
    const cell = (runtime: string, mode: string, n: number) =>
      report.storage!.cells.find((c) => c.runtime === runtime && c.mode === mode && c.requirements === n)!;
    const n = Math.max(...sizes);
    // A checkpoint per step keeps more than one at the end; slices carry less than the whole state.
    expect(cell('langgraph', 'sync', n).rows!).toBeGreaterThan(cell('langgraph', 'exit', n).rows!);
    expect(cell('temporal', 'hardened', n).activityInputBytes!).toBeLessThan(
      cell('temporal', 'naive', n).activityInputBytes!,
    );
    expect(report.storage!.projections.length).toBeGreaterThan(0);
  });

  it('gives recoveryMs by setting, from kills that completed, and the loaded runs', () => {
    for (const runtime of ['langgraph', 'temporal']) {
      const r = report.runtimes[runtime]!.hardened!.recoveryMs!;
      expect(r.length, runtime).toBeGreaterThan(0);
      for (const p of r) positive(p.median);
    }
    for (const p of report.recovery!.points) expect(p.failed, p.failed.join('; ')).toEqual([]);
    expect(report.recovery!.takeovers.length).toBeGreaterThan(0);
  });
});
