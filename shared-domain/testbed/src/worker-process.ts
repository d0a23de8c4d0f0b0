import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCrashLine, type CrashLine } from '@vendor-review/instrument';
import { stopOnInterrupt } from '@vendor-review/worker-io';

/**
 * A worker process as the harness starts it: `node <entry> <args>` with exactly this environment
 * (plus the few variables a process needs to run at all). Unset (undefined) means unset.
 */
export interface WorkerSpec {
  entry: string;
  args?: string[];
  env: Record<string, string | undefined>;
  /** Keys of `env` naming a socket the worker listens on, where its runtime's server reaches it (a network cut goes in front). */
  listens?: readonly string[];
  /** Keys of `env` naming an address the worker tells its server to reach it at, not one it connects to (a network cut leaves it). */
  advertises?: readonly string[];
}

/**
 * A runtime's worker as a real child process, watched from outside: its exit code or signal
 * (taken on `close`, once its output has been read to the end), the CRASHPOINT line it writes
 * before it kills or freezes itself, its peak memory. Every child started here is tracked so a
 * teardown (end, Ctrl-C, failure) can kill exactly those processes and no others.
 *
 * A worker gets only the environment its spec gives it, plus the few variables a process needs to
 * run at all (WORKER_ENV_PASSTHROUGH): a setting in the user's shell (OPENAI_BASE_URL, a stray
 * CRASH_PLAN, LANGSMITH_TRACING…) must not change what a worker does, or the numbers.
 *
 * NODE_EXTRA_CA_CERTS is not among them: Node 20 reads and parses that whole file at every process
 * start, before any code runs, which a crash matrix of hundreds of workers pays for each one
 * (compare/MEASUREMENTS.md). A worker here reaches TLS only through its database URL, where
 * `sslrootcert=` names the CA, or through its runtime's own TLS settings (TEMPORAL_TLS_*).
 */
export const WORKER_ENV_PASSTHROUGH = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ', 'SSL_CERT_FILE'];

export interface WorkerLife {
  name: string;
  pid: number | null;
  startedAt: number;
  exitedAt: number | null;
  exitCode: number | null;
  signal: string | null;
  /**
   * The crash point it announced before killing itself, or before sending itself SIGTERM (`term`:
   * how it then left is its exit); stops it froze at and went on from are not crashes.
   */
  crash: CrashLine | null;
  /** When it printed a READY line (a queue worker polling its queue: Temporal's, DBOS's), epoch ms. */
  readyAt: number | null;
  /**
   * When it said it was loaded and connected (a LOADED or READY line), and the CPU time (user +
   * system, ms) it had used by then: what its start cost before it could take any work.
   */
  loadedAt: number | null;
  loadedCpuMs: number | null;
  /** CPU time it had used when last seen alive (sampled from /proc, so up to one sample short), ms. */
  cpuMs: number | null;
  /** Highest resident set size seen while it lived, in kB (sampled from /proc). */
  peakRssKb: number | null;
  /** The end of its output, for a run that went wrong. */
  logTail: string;
}

/** A life as recorded before anything has happened to it: the one shape every record starts from. */
export function workerLife(o: Pick<WorkerLife, 'name' | 'startedAt'> & Partial<WorkerLife>): WorkerLife {
  return {
    pid: null,
    exitedAt: null,
    exitCode: null,
    signal: null,
    crash: null,
    readyAt: null,
    loadedAt: null,
    loadedCpuMs: null,
    cpuMs: null,
    peakRssKb: null,
    logTail: '',
    ...o,
  };
}

export interface WorkerProcessOptions {
  /**
   * Its own process group, signalled as a group: a terminal's Ctrl-C then reaches only the process
   * that started it (the lab worker), which decides what happens to its workers.
   */
  ownGroup?: boolean;
  /** Each line it prints, as it is read (the lab streams them to its terminal). */
  onLine?: (stream: 'out' | 'err', text: string) => void;
}

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CODE_CACHED = fileURLToPath(new URL('./code-cached.mjs', import.meta.url));
const TAIL_BYTES = 4000;
const KEEP_LINES = 5000;
const live = new Set<ChildProcess>();
// A command run by runCli({ stopsOnSignal }) kills its workers on Ctrl-C or SIGTERM.
stopOnInterrupt(killAllWorkers);

/** VmHWM (peak resident set) of a live process in kB, or null once it is gone. */
function peakRssKb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), or null once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return null;
  }
}

const CLOCK_TICKS_PER_MS = 100 / 1000; // USER_HZ: Linux reports /proc times in 1/100 s on every architecture

/** User + system CPU time a live process has used, in ms, or null once it is gone. */
function cpuMsOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_MS : null;
}

export interface StartedWorker {
  entry: string;
  life: WorkerLife;
}
let started: StartedWorker[] | null = null;

/**
 * From now on, keeps every worker this process starts, with the entry it ran (`pnpm compare
 * --profile` reads them afterwards); off unless asked, so a long campaign does not hoard lives.
 */
export function recordStartedWorkers(): () => readonly StartedWorker[] {
  const list: StartedWorker[] = (started ??= []);
  return () => list;
}

const HAS_PROC = existsSync('/proc/self/stat');

/**
 * The kernel's word on a process: stopped (SIGSTOP) or not. Read from /proc where there is one (a
 * harness asks this many times a second), else from `ps` (macOS).
 */
function isStopped(pid: number): boolean {
  if (HAS_PROC) return statFields(pid)?.[0] === 'T';
  return spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
    .stdout.trim()
    .startsWith('T');
}

export function workerEnv(
  spec: WorkerSpec,
  name: string,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of WORKER_ENV_PASSTHROUGH) {
    const value = from[key];
    if (value !== undefined) env[key] = value;
  }
  for (const [k, v] of Object.entries(spec.env)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  env.WORKER_NAME = name;
  return env;
}

export class WorkerProcess {
  readonly life: WorkerLife;
  readonly exited: Promise<WorkerLife>;
  private readonly child: ChildProcess;
  private readonly lines: { stream: 'out' | 'err'; text: string }[] = [];
  private readonly listeners = new Set<() => void>();
  private tail = '';
  /** Every `name:stop` point it froze at, in order. */
  readonly stops: CrashLine[] = [];

  private readonly ownGroup: boolean;
  private readonly onLine: WorkerProcessOptions['onLine'];

  constructor(name: string, spec: WorkerSpec, o: WorkerProcessOptions = {}) {
    const startedAt = Date.now();
    this.ownGroup = o.ownGroup ?? false;
    this.onLine = o.onLine;
    // A TypeScript entry needs tsx; a prebuilt bundle runs from its code cache.
    const node = spec.entry.endsWith('.ts')
      ? ['--import', 'tsx', spec.entry]
      : spec.entry.endsWith('.cjs')
        ? [CODE_CACHED, spec.entry]
        : [spec.entry];
    this.child = spawn(process.execPath, [...node, ...(spec.args ?? [])], {
      cwd: REPO_ROOT,
      env: workerEnv(spec, name),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: this.ownGroup,
    });
    live.add(this.child);
    this.life = workerLife({ name, pid: this.child.pid ?? null, startedAt });
    started?.push({ entry: spec.entry, life: this.life });
    this.read(this.child.stdout!, 'out');
    this.read(this.child.stderr!, 'err');

    const sampler = setInterval(() => {
      if (this.child.pid === undefined) return;
      const kb = peakRssKb(this.child.pid);
      if (kb !== null) this.life.peakRssKb = Math.max(this.life.peakRssKb ?? 0, kb);
      this.life.cpuMs = cpuMsOf(this.child.pid) ?? this.life.cpuMs;
    }, 150);
    sampler.unref();

    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null) => {
        clearInterval(sampler);
        live.delete(this.child);
        this.life.exitedAt = Date.now();
        this.life.exitCode = code;
        this.life.signal = signal;
        this.life.logTail = this.tail.trim().slice(-TAIL_BYTES);
        this.notify();
        resolve(this.life);
      };
      // `close`, not `exit`: the last line (the CRASHPOINT announcement) is read before we judge.
      this.child.once('close', done);
      this.child.once('error', (err) => {
        this.tail += `\nspawn failed: ${err.message}`;
        done(null, null);
      });
    });
  }

  private read(stream: NodeJS.ReadableStream, kind: 'out' | 'err'): void {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      this.tail = (this.tail + (kind === 'out' ? chunk : chunk)).slice(-TAIL_BYTES);
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) this.take(kind, text);
    });
    stream.on('end', () => {
      if (partial) this.take(kind, partial);
      partial = '';
    });
  }

  private take(stream: 'out' | 'err', text: string): void {
    this.lines.push({ stream, text });
    if (this.lines.length > KEEP_LINES) this.lines.shift();
    const crash = stream === 'err' ? parseCrashLine(text) : null;
    if (crash?.action === 'kill' || crash?.action === 'term') this.life.crash ??= crash;
    if (crash?.action === 'stop') this.stops.push(crash);
    if (stream === 'out' && this.life.readyAt === null && /\bREADY\b/.test(text)) this.life.readyAt = Date.now();
    if (stream === 'out' && this.life.loadedAt === null && /\b(LOADED|READY)\b/.test(text)) {
      this.life.loadedAt = Date.now();
      if (this.child.pid !== undefined) this.life.loadedCpuMs = cpuMsOf(this.child.pid);
    }
    this.onLine?.(stream, text);
    this.notify();
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }

  get alive(): boolean {
    return this.life.exitedAt === null;
  }

  get pid(): number | null {
    return this.life.pid;
  }

  /** Everything it printed, stdout and stderr interleaved as read (the last few thousand lines). */
  output(): string {
    return this.lines.map((l) => l.text).join('\n');
  }

  /**
   * Resolves with the first line matching `pattern` (already printed or still to come); rejects
   * with the worker's output if it exits first or the wait outlives `timeoutMs`.
   */
  waitForLine(pattern: RegExp, timeoutMs = 120_000): Promise<string> {
    return this.waitFor(
      `a line matching ${pattern}`,
      () => this.lines.find((l) => pattern.test(l.text))?.text,
      timeoutMs,
    );
  }

  /**
   * Resolves once the worker has frozen itself at its `nth` stop (1-based; a plan can name several
   * `name:stop` points): announced on stderr, and stopped as far as the kernel is concerned.
   */
  async waitForStop(nth = 1, timeoutMs = 120_000): Promise<CrashLine> {
    const announced = await this.waitFor(`stop number ${nth}`, () => this.stops[nth - 1], timeoutMs);
    while (this.alive && this.pid !== null && !isStopped(this.pid)) await new Promise((r) => setTimeout(r, 20));
    return announced;
  }

  private waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = probe();
        if (found !== undefined) return finish(() => resolve(found));
        if (!this.alive)
          finish(() =>
            reject(
              new Error(
                `worker ${this.life.name} ended (${this.life.signal ?? `code ${this.life.exitCode}`}) before ${what}:\n${this.output()}`,
              ),
            ),
          );
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`worker ${this.life.name}: no ${what} within ${timeoutMs} ms:\n${this.output()}`)),
          ),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Sends a signal if the process is still there (SIGSTOP / SIGCONT to freeze and wake it). */
  signal(sig: NodeJS.Signals): void {
    if (this.alive) this.send(sig);
  }

  /** SIGTERM, then SIGKILL if it has not gone after `graceMs`. */
  async stop(graceMs = 3000): Promise<WorkerLife> {
    if (!this.alive) return this.exited;
    this.send('SIGCONT'); // a frozen process cannot act on SIGTERM
    this.send('SIGTERM');
    const t = setTimeout(() => this.alive && this.send('SIGKILL'), graceMs);
    const life = await this.exited;
    clearTimeout(t);
    return life;
  }

  kill(): Promise<WorkerLife> {
    if (this.alive) this.send('SIGKILL');
    return this.exited;
  }

  private send(sig: NodeJS.Signals): void {
    if (!this.ownGroup || this.child.pid === undefined) {
      this.child.kill(sig);
      return;
    }
    try {
      process.kill(-this.child.pid, sig);
    } catch {
      // the group is gone already; `close` has yet to be read
    }
  }
}

/** Teardown: SIGKILL every worker this process started that is still alive. */
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

/** Runs a worker to its end and returns what it did (a one-shot worker: LangGraph's `--run`). */
export async function runWorkerToEnd(name: string, spec: WorkerSpec): Promise<{ life: WorkerLife; output: string }> {
  const w = new WorkerProcess(name, spec);
  const life = await w.exited;
  return { life, output: w.output() };
}
