import { WorkerProcess, killAllWorkers } from '@vendor-review/testbed';
import { WORKER_ENTRY } from '../harness/index.ts';

/**
 * LangGraph worker processes for the tests, through the one worker-process module the harness
 * uses (shared-domain infra): `node --import tsx harness/worker.ts <args>` with exactly `env`, that
 * is src/'s worker with the crash points laid over it (CRASH_PLAN arms them).
 */
export interface WorkerResult {
  pid: number;
  code: number | null;
  signal: string | null;
  /** Everything it printed, both streams. */
  output: string;
}

export interface WorkerHandle {
  process: WorkerProcess;
  done: Promise<WorkerResult>;
}

export function startWorker(args: string[], env: Record<string, string | undefined>): WorkerHandle {
  const process = new WorkerProcess(env.WORKER_NAME ?? 'A', { entry: WORKER_ENTRY, args, env });
  const done = process.exited.then((life) => ({
    pid: life.pid ?? -1,
    code: life.exitCode,
    signal: life.signal,
    output: process.output(),
  }));
  return { process, done };
}

export function runWorker(args: string[], env: Record<string, string | undefined>): Promise<WorkerResult> {
  return startWorker(args, env).done;
}

/** Kills what a failed test left running. */
export function killLeftovers(): void {
  killAllWorkers();
}

/** Polls `probe` until it returns something truthy; the condition, never the time, ends the wait. */
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
