import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { JOB_ENV, type WorkerJob } from './job.ts';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
// The tool's own tsx (the app need not have it): it loads the app's TypeScript in each worker.
const TSX = createRequire(import.meta.url).resolve('tsx');

export interface StartedWorker {
  pid: number;
  startedAt: number;
  /** Resolves when the process is gone, however it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * A worker of a cell in a process of its own, so that it can die: the user's app loads there from
 * the user's directory (`cwd`), its output goes to `output` for the report to point at.
 */
export function startWorker(
  job: WorkerJob,
  o: { cwd: string; output: string; env?: NodeJS.ProcessEnv },
): StartedWorker {
  const out = openSync(o.output, 'a');
  const child = spawn(process.execPath, ['--import', TSX, WORKER], {
    cwd: o.cwd,
    env: { ...(o.env ?? process.env), [JOB_ENV]: JSON.stringify(job) },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
    child.once('error', () => resolve({ code: null, signal: null, at: Date.now() }));
  });
  return {
    pid: child.pid ?? -1,
    startedAt: Date.now(),
    exited,
    kill: (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** Waits for `p` at most `ms`; null when the time ran out. */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((r) => {
    timer = setTimeout(() => r(null), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
