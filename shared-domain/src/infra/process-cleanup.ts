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
