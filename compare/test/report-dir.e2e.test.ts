import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

/**
 * The report folder of the long commands (compare, chaos, bench), end to end (issue 27):
 * - one that cannot be written is refused before anything starts: exit 2, one line naming it;
 * - one that breaks after the check (replaced by a file while the run runs) loses nothing: the
 *   table is on stdout, the results are saved in the caller's folder (named on stderr), the
 *   process ends by itself, and no process it started is left.
 * The tiniest selections each command has, so that each run is a few seconds of real work.
 */
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES = {
  compare: 'src/compare.ts',
  chaos: 'src/chaos/cli.ts',
  bench: 'src/bench/cli.ts',
} as const;
type Command = keyof typeof ENTRIES;

/** Each command's smallest real run. */
const TINY: Record<Command, string[]> = {
  compare: ['--suite', 'crash', '--runtime', 'plain', '--crash', 'boundary', '--variant', 'naive'],
  chaos: ['--seed', 'issue27', '--runs', '1', '--runtime', 'langgraph', '--variant', 'hardened', '--workers', '1'],
  bench: ['--smoke', '--section', 'storage', '--runtime', 'langgraph'],
};

/** Where each one's results are saved when its report folder fails, and what the table on stdout starts with. */
const RESCUE: Record<Command, { file: string; table: RegExp }> = {
  compare: { file: 'results.json', table: /\d+ cells: \d+ completed/ },
  chaos: { file: 'chaos.json', table: /^chaos campaign, seed issue27: 1 review\(s\) per runtime × variant/m },
  bench: { file: 'bench.json', table: /^What durability costs$/m },
};

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Every process seen below the command while it ran. */
  seen: { pid: number; args: string }[];
}

/** The processes below `root`, each with its command line. */
function descendants(root: number): { pid: number; args: string }[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => {
      const [pid, ppid, ...args] = l.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), args: args.join(' ') };
    });
  const out: { pid: number; args: string }[] = [];
  const walk = (pid: number) => {
    for (const p of table)
      if (p.ppid === pid && !out.some((o) => o.pid === p.pid)) {
        out.push({ pid: p.pid, args: p.args });
        walk(p.pid);
      }
  };
  walk(root);
  return out;
}

/** Alive and not a zombie, read from /proc. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs a command from the package folder as pnpm does (INIT_CWD: the caller's folder); `onStderr`
 * sees the stderr so far as it grows. Fails (instead of hanging) when the command does not end
 * within `boundMs` of its last output line.
 */
function run(
  command: Command,
  args: string[],
  o: { cwd: string; boundMs: number; onStderr?: (text: string, child: ChildProcess) => void },
): Promise<Ended> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRIES[command], ...args], {
    cwd: packageDir,
    env: { ...process.env, INIT_CWD: o.cwd, NO_COLOR: '1', DATABASE_URL: '', TEMPORAL_ADDRESS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = new Map<number, string>();
  const watch = setInterval(() => {
    if (child.pid) for (const p of descendants(child.pid)) if (!seen.has(p.pid)) seen.set(p.pid, p.args);
  }, 150);
  let stdout = '';
  let stderr = '';
  let silentSince = Date.now();
  child.stdout.on('data', (c: Buffer) => ((stdout += c.toString()), (silentSince = Date.now())));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    silentSince = Date.now();
    o.onStderr?.(stderr, child);
  });
  return new Promise((resolve, reject) => {
    const hung = setInterval(() => {
      if (Date.now() - silentSince < o.boundMs) return;
      clearInterval(hung);
      clearInterval(watch);
      child.kill('SIGKILL');
      reject(new Error(`${command} did not end within ${o.boundMs} ms of its last output:\n${stderr.slice(-2000)}`));
    }, 250);
    child.on('close', (code, signal) => {
      clearInterval(hung);
      clearInterval(watch);
      resolve({ code, signal, stdout, stderr, seen: [...seen].map(([pid, args]) => ({ pid, args })) });
    });
  });
}

/** A folder of the test's own, removed when that test (not a concurrent sibling) is done. */
function scratch(done: (fn: () => void) => void = onTestFinished): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'report-dir-test-'));
  done(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe.concurrent('a report folder that cannot be written is refused before anything starts', () => {
  // /proc/…: where Node's recursive mkdir used to spin for good; a path through a file: ENOTDIR.
  const cases: [Command, (dir: string) => string][] = [
    ['compare', () => '/proc/forbidden/x'],
    ['chaos', (dir) => path.join(dir, 'a-file', 'report')],
    ['bench', (dir) => path.join(dir, 'a-file', 'report')],
  ];
  it.for(cases)('%s', async ([command, target], { onTestFinished: done }) => {
    const dir = scratch(done);
    writeFileSync(path.join(dir, 'a-file'), 'not a folder\n');
    const reportDir = target(dir);
    const r = await run(command, [...TINY[command], '--report-dir', reportDir], { cwd: dir, boundMs: 30_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`--report-dir ${reportDir} cannot be written: `);
    expect(lines[0]).toMatch(/ENOENT|ENOTDIR/);
    // Nothing was started: no worker, no PostgreSQL, no Temporal (tsx's compiler service aside).
    expect(r.seen.filter((p) => !/esbuild/.test(p.args))).toEqual([]);
  });
});

// One long command at a time: each runs real workers, and the machine is small.
describe('a report folder that breaks after the run loses nothing', { timeout: 240_000 }, () => {
  it.each(Object.keys(ENTRIES) as Command[])(
    '%s: the table on stdout, the results saved in the caller’s folder, nothing left running',
    async (command) => {
      const cwd = scratch();
      const reportDir = path.join(cwd, 'report');
      let broken = false;
      const r = await run(command, [...TINY[command], '--report-dir', reportDir], {
        cwd,
        // The command ends by itself: a spin or a wait after the last line fails here.
        boundMs: 60_000,
        onStderr: () => {
          // The folder passed its check (it exists now) and the run has begun: make it unwritable.
          if (broken || !existsSync(reportDir)) return;
          broken = true;
          rmSync(reportDir, { recursive: true, force: true });
          writeFileSync(reportDir, 'this was the report folder\n');
        },
      });
      expect(broken).toBe(true);
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(RESCUE[command].table);
      const saved = /the results are saved in (\S+)$/m.exec(r.stderr)?.[1];
      expect(saved, r.stderr.slice(-1500)).toBe(path.join(cwd, RESCUE[command].file));
      const results = JSON.parse(readFileSync(saved!, 'utf8')) as Record<string, unknown>;
      expect(Object.keys(results).length).toBeGreaterThan(1);
      expect(r.stderr).toMatch(/the report could not be written \(ENOTDIR/);
      // Every process it started is gone (the watchers that outlive a SIGKILL need up to a second).
      expect(r.seen.length).toBeGreaterThan(0);
      await until(`no process left of ${r.seen.length}`, () => r.seen.every((p) => !alive(p.pid)), 15_000);
    },
  );
});

describe('SIGTERM in the middle of the run', { timeout: 240_000 }, () => {
  it.each(Object.keys(ENTRIES) as Command[])(
    '%s: exits 130 at once, and nothing it started is left',
    async (command) => {
      const cwd = scratch();
      let sent = false;
      const r = await run(command, [...TINY[command], '--report-dir', path.join(cwd, 'report')], {
        cwd,
        boundMs: 30_000,
        onStderr: (text, child) => {
          // The infrastructure is up (the world's line comes last): there is a server to stop.
          if (sent || !/^(bench \+ *[\d.]+ s +)?world: http/m.test(text)) return;
          sent = true;
          child.kill('SIGTERM');
        },
      });
      expect(sent).toBe(true);
      expect([r.code, r.signal]).toEqual([130, null]);
      expect(r.stderr).toMatch(new RegExp(`^${command}: SIGTERM: stopping workers and infrastructure`, 'm'));
      expect(r.seen.length).toBeGreaterThan(0);
      await until(`no process left of ${r.seen.length}`, () => r.seen.every((p) => !alive(p.pid)), 15_000);
    },
  );
});
