import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { settlesWithin } from '@vendor-review/worker-io';
import { reasonOf } from './infra-error.ts';
import { killWithParent, onProcessEnd } from './process-cleanup.ts';

/**
 * A server the harness runs as a child process (Temporal's dev server, Restate's server), watched
 * the one way: every line of its output is handed to `onLine` and the first and last kept for a
 * failure's message; it is SIGKILLed if the harness dies or exits first; and it is stopped with
 * SIGTERM (SIGKILL after 10 s) or killed, each time waiting for it to be gone.
 */
export interface ServerProcess {
  readonly pid: number | undefined;
  /** Gone: exited, killed, or never spawned. */
  isGone(): boolean;
  /** Why it is gone while the harness waited for it to be ready: it could not be spawned, or it exited. */
  whyGoneBeforeReady(): string;
  /** The first lines it printed and the last ones (how many were left out between), for an error. */
  output(): string[];
  /** SIGTERM, SIGKILL if it has not left within 10 s; resolves once it is gone. */
  stop(): Promise<void>;
  /** SIGKILL; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGKILL without waiting. */
  killNow(): void;
}

export interface ServerProcessOptions {
  env: NodeJS.ProcessEnv;
  /** Each line, stdout and stderr alike; what it returns is what the output keeps of it (default: the line). */
  onLine?: (line: string) => string | undefined;
  /** How many lines to keep from the start and from the end (default 4 and 8). */
  keep?: { first: number; last: number };
  /** A directory the harness's death removes with it (a server started in a temporary one). */
  removeDirWithParent?: string;
}

export function startServerProcess(command: string, args: string[], o: ServerProcessOptions): ServerProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: o.env });
  const keep = o.keep ?? { first: 4, last: 8 };
  const first: string[] = [];
  const last: string[] = [];
  let dropped = 0;
  const onLine = (line: string) => {
    if (!line.trim()) return;
    const kept = o.onLine ? o.onLine(line) : line.trim();
    if (kept === undefined) return;
    if (first.length < keep.first) first.push(kept);
    else if (last.push(kept) > keep.last) {
      last.shift();
      dropped++;
    }
  };
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onLine);

  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      spawnError = err;
      resolve();
    });
    child.once('exit', () => resolve());
  });
  const isGone = () => spawnError !== undefined || child.exitCode !== null || child.signalCode !== null;
  if (child.pid !== undefined) {
    const unwatch = killWithParent({
      pid: child.pid,
      signal: 'KILL',
      ...(o.removeDirWithParent ? { removeDir: o.removeDirWithParent } : {}),
    });
    child.once('exit', unwatch);
  }
  const forget = onProcessEnd(() => {
    if (!isGone()) child.kill('SIGKILL');
  });
  const terminate = async (signal: 'SIGTERM' | 'SIGKILL') => {
    if (!isGone()) child.kill(signal);
    if (signal === 'SIGTERM' && !(await settlesWithin(exited, 10_000))) child.kill('SIGKILL');
    await exited;
    forget();
  };
  return {
    pid: child.pid,
    isGone,
    whyGoneBeforeReady: () =>
      spawnError
        ? `could not be spawned: ${reasonOf(spawnError)}`
        : `exited with ${child.exitCode ?? child.signalCode} before it was ready`,
    output: () => [...first, ...(dropped ? [`… ${dropped} lines …`] : []), ...last],
    stop: () => terminate('SIGTERM'),
    kill: () => terminate('SIGKILL'),
    killNow: () => {
      if (!isGone()) child.kill('SIGKILL');
    },
  };
}
