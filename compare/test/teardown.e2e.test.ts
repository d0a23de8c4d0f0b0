import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { userDatabase } from './user-database.ts';

/**
 * Ctrl-C in the middle of the matrix: every process the harness started (workers, the Temporal dev
 * server, the embedded PostgreSQL) is gone afterwards, and the exit code says "interrupted".
 */
function descendants(root: number): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of table) {
      if (parent === pid && !out.includes(child)) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return stat !== '' && !stat.startsWith('Z');
  } catch {
    return false;
  }
}

describe('Ctrl-C', () => {
  it('stops every process the harness started', async () => {
    const entry = fileURLToPath(new URL('../src/compare.ts', import.meta.url));
    // Under a DATABASE_URL, what the invocation creates there is removed afterwards.
    const user = await userDatabase();
    onTestFinished(() => user.cleanup());
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        entry,
        '--crash',
        'after-model',
        '--variant',
        'naive',
        '--durability',
        'sync',
        '--report-dir',
        '/tmp/compare-teardown-test',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: user.env,
      },
    );
    let stderr = '';
    const cellsRunning = new Promise<void>((resolve) =>
      child.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (/running \d+ cells/.test(stderr)) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await Promise.race([cellsRunning, exited]);
    // Interrupt only once worker processes run, so there is something of every kind to clean up.
    const args = (pid: number) => {
      try {
        return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      } catch {
        return ''; // gone between the listing and this look
      }
    };
    const workersRunning = () => descendants(child.pid!).filter((pid) => alive(pid) && /worker-bundle/.test(args(pid)));
    while (workersRunning().length === 0) {
      expect(child.exitCode, `compare ended before any worker started:\n${stderr}`).toBeNull();
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = descendants(child.pid!);
    expect(started.length, stderr).toBeGreaterThan(2);
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stderr).toBe(130);
    // The embedded PostgreSQL's own reaper (a shell from the infra helper) finishes a few seconds after us.
    let left = started.filter(alive);
    for (let i = 0; i < 20 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 500));
      left = left.filter(alive);
    }
    expect(left.map(args), stderr).toEqual([]);
  }, 300_000);
});
