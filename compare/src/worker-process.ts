import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCrashLine } from '@vendor-review/domain';
import type { WorkerLife } from './observation.ts';

/**
 * A runtime's worker as a real child process (`node --import tsx <entry>`), watched from outside:
 * its exit code or signal, the `CRASHPOINT …` line it writes before killing itself, its peak
 * memory. Every child the harness starts is tracked so teardown (end, Ctrl-C, failure) can kill
 * exactly those processes and no others.
 */
export interface WorkerSpec {
  entry: string;
  args?: string[];
  env: Record<string, string | undefined>;
}

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TAIL_BYTES = 4000;
const live = new Set<ChildProcess>();

/** VmHWM (peak resident set) of a live process in kB, or null once it is gone. */
function peakRssKb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export class WorkerProcess {
  readonly life: WorkerLife;
  readonly exited: Promise<WorkerLife>;
  private readonly child: ChildProcess;
  private stderrTail = '';
  private stdoutTail = '';
  private readyWaiters: ((line: string) => void)[] = [];
  /** First stdout line matching READY, with the time it was seen (Temporal workers print one). */
  readyAt: number | null = null;

  constructor(name: string, spec: WorkerSpec) {
    const startedAt = Date.now();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...spec.env })) if (v !== undefined) env[k] = v;
    env.WORKER_NAME = name;
    // An unset value in the spec means "unset", not "inherit": a stray CRASH_PLAN or DATABASE_URL
    // in the harness's own environment must not leak into a worker that was not given one.
    for (const [k, v] of Object.entries(spec.env)) if (v === undefined) delete env[k];
    // A prebuilt bundle runs on plain node; a TypeScript entry needs tsx.
    const node = spec.entry.endsWith('.ts') ? ['--import', 'tsx', spec.entry] : [spec.entry];
    this.child = spawn(process.execPath, [...node, ...(spec.args ?? [])], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(this.child);
    this.life = {
      name,
      pid: this.child.pid ?? null,
      startedAt,
      exitedAt: null,
      exitCode: null,
      signal: null,
      crash: null,
      readyAt: null,
      peakRssKb: null,
      logTail: '',
    };

    let partial = '';
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-TAIL_BYTES);
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) this.life.crash ??= parseCrashLine(l);
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdoutTail = (this.stdoutTail + chunk).slice(-TAIL_BYTES);
      if (this.readyAt === null && /READY/.test(chunk)) {
        this.readyAt = Date.now();
        this.life.readyAt = this.readyAt;
        for (const w of this.readyWaiters.splice(0)) w(chunk);
      }
    });

    const sampler = setInterval(() => {
      if (this.child.pid === undefined) return;
      const kb = peakRssKb(this.child.pid);
      if (kb !== null) this.life.peakRssKb = Math.max(this.life.peakRssKb ?? 0, kb);
    }, 150);
    sampler.unref();

    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null) => {
        clearInterval(sampler);
        live.delete(this.child);
        if (partial) this.life.crash ??= parseCrashLine(partial);
        this.life.exitedAt = Date.now();
        this.life.exitCode = code;
        this.life.signal = signal;
        this.life.logTail = [this.stderrTail.trim(), this.stdoutTail.trim() ? `[stdout] ${this.stdoutTail.trim()}` : '']
          .filter(Boolean)
          .join('\n')
          .slice(-TAIL_BYTES);
        resolve(this.life);
      };
      this.child.once('exit', done);
      this.child.once('error', (err) => {
        this.stderrTail += `\nspawn failed: ${err.message}`;
        done(null, null);
      });
    });
  }

  get alive(): boolean {
    return this.life.exitedAt === null;
  }

  get pid(): number | null {
    return this.life.pid;
  }

  /** Resolves with the time the worker printed READY, or null if it exits or the wait times out. */
  ready(timeoutMs: number): Promise<number | null> {
    if (this.readyAt !== null) return Promise.resolve(this.readyAt);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(null), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(t);
        resolve(this.readyAt);
      });
      void this.exited.then(() => {
        clearTimeout(t);
        resolve(this.readyAt);
      });
    });
  }

  /** SIGTERM, then SIGKILL if it has not gone after `graceMs`. */
  async stop(graceMs = 3000): Promise<WorkerLife> {
    if (!this.alive) return this.exited;
    this.child.kill('SIGTERM');
    const t = setTimeout(() => this.alive && this.child.kill('SIGKILL'), graceMs);
    const life = await this.exited;
    clearTimeout(t);
    return life;
  }

  kill(): Promise<WorkerLife> {
    if (this.alive) this.child.kill('SIGKILL');
    return this.exited;
  }
}

/** Teardown: SIGKILL every worker this harness started that is still alive. */
export function killAllWorkers(): number {
  let n = 0;
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      n++;
    }
  }
  return n;
}
