import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WORKER_ENTRY } from '../../src/index.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface CrashReport {
  point: string;
  occurrence: number;
  pid: number;
  at: number;
  detail: string;
}

export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  crash: CrashReport | null;
}

export interface WorkerProcess {
  name: string;
  pid: number;
  /** Resolves with the worker's own start time (ms from process start to polling). */
  ready: Promise<{ startMs: number; at: number }>;
  exited: Promise<WorkerExit>;
  output(): string;
  alive(): boolean;
  /** SIGTERM: graceful. */
  stop(): Promise<WorkerExit>;
  kill(): Promise<WorkerExit>;
}

export interface WorkerEnv {
  address: string;
  taskQueue: string;
  worldUrl: string;
  databaseUrl?: string;
  bundlePath?: string;
  crashPlan?: string;
  namespace?: string;
}

/** Children still running when the test process ends (a timed-out test, Ctrl-C) are killed with it. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A real worker process, as the harness starts it: `node --import tsx src/worker.ts` with its env. */
export function startWorkerProcess(name: string, o: WorkerEnv): WorkerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_ADDRESS: o.address,
    TEMPORAL_NAMESPACE: o.namespace ?? 'default',
    TASK_QUEUE: o.taskQueue,
    WORLD_URL: o.worldUrl,
    WORKER_NAME: name,
    CRASH_PLAN: o.crashPlan ?? '',
  };
  if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
  else delete env.DATABASE_URL;
  if (o.bundlePath) env.WORKFLOW_BUNDLE = o.bundlePath;
  else delete env.WORKFLOW_BUNDLE;

  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', WORKER_ENTRY], {
    cwd: PACKAGE_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const lines: string[] = [];
  let crash: CrashReport | null = null;
  let resolveReady!: (v: { startMs: number; at: number }) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<{ startMs: number; at: number }>((res, rej) => {
    resolveReady = res;
    rejectReady = rej;
  });
  ready.catch(() => {});

  const onLine = (line: string) => {
    lines.push(line);
    const r = /^WORKER READY .*startMs=(\d+)/.exec(line);
    if (r) resolveReady({ startMs: Number(r[1]), at: Date.now() });
    const c = /^CRASHPOINT (\S+)@(\d+) pid=(\d+) at=(\d+)\s*(.*)$/.exec(line);
    if (c) crash = { point: c[1]!, occurrence: Number(c[2]), pid: Number(c[3]), at: Number(c[4]), detail: c[5] ?? '' };
  };
  const split = (stream: NodeJS.ReadableStream | null) => {
    let buffered = '';
    stream?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      parts.forEach(onLine);
    });
    stream?.on('end', () => buffered && onLine(buffered));
  };
  split(child.stdout);
  split(child.stderr);

  const exited = new Promise<WorkerExit>((resolve) => {
    child.once('exit', (code, signal) => {
      // let the last stderr chunk (the CRASHPOINT line) arrive
      setTimeout(() => {
        rejectReady(
          new Error(`worker ${name} exited (code ${code}, signal ${signal}) before it was ready:\n${lines.join('\n')}`),
        );
        resolve({ code, signal, crash });
      }, 50);
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    pid: child.pid ?? -1,
    ready,
    exited,
    output: () => lines.join('\n'),
    alive,
    stop: () => {
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
    kill: () => {
      if (alive()) child.kill('SIGKILL');
      return exited;
    },
  };
}
