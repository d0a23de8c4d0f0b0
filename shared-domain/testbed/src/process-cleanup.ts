import { spawn } from 'node:child_process';

/**
 * Last-resort cleanup for servers this process started, so an interrupted test run or harness
 * leaves nothing running. Normal code calls `stop()`; these hooks only cover the paths where it
 * never gets the chance: process exit, Ctrl-C, a SIGTERM from a test runner.
 *
 * Hooks must be synchronous (the `exit` event allows nothing else): send a signal, remove a directory.
 */
type Hook = () => void;

const hooks = new Set<Hook>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function runHooks(): void {
  for (const hook of [...hooks]) {
    hooks.delete(hook);
    try {
      hook();
    } catch {
      // best effort: one failing hook must not keep the others from running
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runHooks();
  detach();
  // Listening to a signal disables Node's default "terminate"; restore it unless someone else
  // (a test runner, another library) has taken charge of the signal.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

const signalHandlers = new Map<NodeJS.Signals, () => void>();

function attach(): void {
  if (signalHandlers.size > 0) return;
  process.on('exit', runHooks);
  for (const signal of SIGNALS) {
    const handler = () => onSignal(signal);
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }
}

function detach(): void {
  process.removeListener('exit', runHooks);
  for (const [signal, handler] of signalHandlers) process.removeListener(signal, handler);
  signalHandlers.clear();
}

/** Registers a synchronous hook to run if the process ends before `stop()`. Returns its removal. */
export function onProcessEnd(hook: Hook): () => void {
  hooks.add(hook);
  attach();
  return () => {
    hooks.delete(hook);
    if (hooks.size === 0) detach();
  };
}

export interface ParentDeathPlan {
  pid: number;
  signal: 'KILL' | 'QUIT';
  /** Signal only while this file's first line is still `pid` (PostgreSQL's postmaster.pid), so a recycled pid is never hit. */
  pidFile?: string;
  /** Removed a moment after the signal. */
  removeDir?: string;
}

/**
 * For the one ending no hook sees: this process being SIGKILLed (a test runner giving up on a
 * worker, a crash test gone wrong). A tiny `sh` loop polls this process once a second and, when it
 * is gone, signals the server and removes its directory. The returned function ends the watcher;
 * call it as soon as the server has exited, so the watcher never signals a recycled pid.
 */
export function killWithParent(plan: ParentDeathPlan): () => void {
  const guard = plan.pidFile ? '[ "$(head -n 1 "$3" 2>/dev/null)" = "$1" ] && ' : '';
  const script =
    'while kill -0 "$0" 2>/dev/null; do sleep 1; done; ' +
    `${guard}kill -${plan.signal} "$1" 2>/dev/null; ` +
    (plan.removeDir ? 'sleep 2; rm -rf "$2"' : 'true');
  const args = [String(process.pid), String(plan.pid), plan.removeDir ?? '', plan.pidFile ?? ''];
  const watcher = spawn('sh', ['-c', script, ...args], {
    stdio: 'ignore',
    detached: true, // its own process group: a runner killing ours must not take the watcher along
  });
  watcher.on('error', () => undefined);
  watcher.unref();
  return () => {
    if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill('SIGKILL');
  };
}

/** Signal 0 checks that a process exists without touching it: how tests prove nothing was left running. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
