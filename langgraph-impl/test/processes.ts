import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { parseCrashLine } from '@vendor-review/domain';
import { WORKER_ENTRY } from '../src/index.ts';

export interface WorkerResult {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** The CRASHPOINT line the domain writes right before SIGKILL, if any. */
  crashLine?: string;
}

export interface WorkerHandle {
  child: ChildProcess;
  done: Promise<WorkerResult>;
  output(): { stdout: string; stderr: string };
  exited(): boolean;
}

const live = new Set<ChildProcess>();

/** A real worker process: `node --import tsx src/worker.ts …`, its own environment, output captured. */
export function startWorker(args: string[], env: Record<string, string | undefined>): WorkerHandle {
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_ENTRY, ...args], {
    env: { ...process.env, CRASH_PLAN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  let exited = false;
  const done = new Promise<WorkerResult>((resolve) => {
    child.on('close', (code, signal) => {
      exited = true;
      live.delete(child);
      const crashLine = /^CRASHPOINT .*$/m.exec(stderr)?.[0];
      resolve({
        pid: child.pid ?? -1,
        code,
        signal,
        stdout,
        stderr,
        ms: Date.now() - started,
        ...(crashLine ? { crashLine } : {}),
      });
    });
  });
  return { child, done, output: () => ({ stdout, stderr }), exited: () => exited };
}

export async function runWorker(args: string[], env: Record<string, string | undefined>): Promise<WorkerResult> {
  return startWorker(args, env).done;
}

/** Kills what a failed test left running, by pid. */
export function killLeftovers(): void {
  for (const child of live) {
    if (child.pid) {
      try {
        process.kill(child.pid, 'SIGCONT');
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** Runs at most `limit` tasks at once (2 shared cores: a worker start costs a second of CPU). */
export async function inBatches<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!);
      }
    }),
  );
  return results;
}

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits for a line in the worker's stdout; fails at once, with its output, if the worker exits first. */
export async function waitForOutput(h: WorkerHandle, text: string, timeoutMs = 240_000): Promise<void> {
  await until(
    `"${text}"`,
    async () => {
      if (h.output().stdout.includes(text)) return true;
      if (h.exited())
        throw new Error(`worker exited before printing "${text}":\n${h.output().stdout}\n${h.output().stderr}`);
      return false;
    },
    timeoutMs,
    250,
  );
}

/**
 * Waits until the worker has frozen itself at a `name:stop` crash point: its announcement is on
 * stderr and the kernel reports the process stopped. Fails at once, with its output, if it exits.
 */
export async function waitForStop(h: WorkerHandle, timeoutMs = 240_000): Promise<void> {
  await until(
    'the worker to stop at its crash point',
    async () => {
      if (h.exited()) throw new Error(`worker exited before it stopped:\n${h.output().stdout}\n${h.output().stderr}`);
      const announced = h
        .output()
        .stderr.split('\n')
        .some((l) => parseCrashLine(l)?.action === 'stop');
      const state = spawnSync('ps', ['-o', 'stat=', '-p', String(h.child.pid)], { encoding: 'utf8' }).stdout.trim();
      return announced && state.startsWith('T');
    },
    timeoutMs,
    50,
  );
}
