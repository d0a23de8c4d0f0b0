import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '@vendor-review/testbed';
import { UsageError } from '@vendor-review/worker-io';
import { files, readJson, writeJson, type LabRuntime } from './state.ts';
import { titleOf } from './runtimes.ts';

/**
 * One foreground lab worker per runtime at a time, and never a worker process left behind: the lab
 * worker records itself and the worker processes it runs (each in its own process group, so the
 * terminal's Ctrl-C reaches only the lab worker, which turns it into SIGKILL for them). A small
 * watcher kills those processes if the lab worker itself is killed, and `lab down` kills whatever
 * a session left.
 */
interface SessionFile {
  pid: number;
  startedAt: number;
}

const sessionFile = (dir: string, runtime: string) => path.join(files(dir).workers, `${runtime}.json`);
const pidsFile = (dir: string, runtime: string) => path.join(files(dir).workers, `${runtime}.pids`);

/** Only ever a process the lab started: a pid recorded long ago may belong to someone else by now. */
function isLabProcess(pid: number): boolean {
  try {
    return isProcessAlive(pid) && /worker|lab/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

export interface WorkerSession {
  /** The worker processes alive right now: the watcher kills exactly these if the lab worker dies. */
  setChildren(pids: number[]): void;
  end(): void;
}

export function openSession(dir: string, runtime: LabRuntime): WorkerSession {
  const other = readJson<SessionFile>(sessionFile(dir, runtime));
  if (other && other.pid !== process.pid && isLabProcess(other.pid))
    throw new UsageError(
      `a ${titleOf(runtime)} lab worker is already running (pid ${other.pid}): one at a time; Ctrl-C it in its terminal first`,
      { seeHelp: false },
    );
  killLeftovers(dir, runtime);
  writeJson(sessionFile(dir, runtime), { pid: process.pid, startedAt: Date.now() } satisfies SessionFile);
  const pids = pidsFile(dir, runtime);
  writeFileSync(pids, '');
  // Polls this process; once it is gone, SIGKILLs every worker process group listed in the file.
  const watcher = spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$0" 2>/dev/null; do sleep 0.2; done; for p in $(cat "$1" 2>/dev/null); do kill -9 -- "-$p" 2>/dev/null; done',
      String(process.pid),
      pids,
    ],
    { stdio: 'ignore', detached: true },
  );
  watcher.on('error', () => undefined);
  watcher.unref();
  return {
    setChildren: (list) => writeFileSync(pids, list.map((p) => `${p}\n`).join('')),
    end() {
      if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill('SIGKILL');
      rmSync(pids, { force: true });
      rmSync(sessionFile(dir, runtime), { force: true });
    },
  };
}

/** SIGKILLs the worker processes (and the lab worker) a session left behind; true when there were any. */
export function killLeftovers(dir: string, runtime: string): boolean {
  let found = false;
  const session = readJson<SessionFile>(sessionFile(dir, runtime));
  if (session && session.pid !== process.pid && isLabProcess(session.pid)) {
    kill(session.pid, 'SIGKILL');
    found = true;
  }
  const pids = pidsFile(dir, runtime);
  if (existsSync(pids)) {
    for (const p of readFileSync(pids, 'utf8')
      .split('\n')
      .map(Number)
      .filter((n) => n > 0)) {
      if (!isLabProcess(p)) continue;
      kill(-p, 'SIGKILL');
      found = true;
    }
  }
  return found;
}

/** `lab down`: every runtime's sessions. */
export function killAllSessions(dir: string): boolean {
  const root = files(dir).workers;
  if (!existsSync(root)) return false;
  const runtimes = new Set(readdirSync(root).map((f) => f.replace(/\.(json|pids)$/, '')));
  let found = false;
  for (const r of runtimes) found = killLeftovers(dir, r) || found;
  return found;
}
