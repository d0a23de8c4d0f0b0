import type { RuntimeAdapter } from '@vendor-review/conformance';
import { isProcessAlive, WorkerProcess, type WorkerLife } from '@vendor-review/testbed';
import { readLives, writeLives, type LabRun } from './runs.ts';

/**
 * The worker process a lab worker runs one run in: started exactly as `pnpm compare` starts one
 * (the adapter's workerSpec) plus TRACE_STEPS, in a process group of its own so the terminal's
 * Ctrl-C reaches only the lab worker; its lines printed under its name and pid; its life written to
 * the run's lives as it starts and again once it has ended.
 */
export interface Child {
  run: LabRun;
  worker: WorkerProcess;
  /** `worker.life`: written to the run's lives as it starts and again once it has ended. */
  life: WorkerLife;
  /** The lab asked it to go (the run ended, or the machine is going down): not a crash. */
  stopping: boolean;
  /** Resolves once its exit has been handled. */
  closed: Promise<void>;
  lastLine: string;
}

/** A, B, … Z, then W27, W28: the names `pnpm compare` gives its workers, per run. */
export function nameFor(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : `W${index + 1}`;
}

/** The name a run's next worker gets: the next letter after those its earlier workers had. */
export function nextName(lives: readonly WorkerLife[]): string {
  return nameFor(lives.length ? new Set(lives.map((l) => l.name)).size : 0);
}

/** A worker's line without the `[worker A pid 123] run r1:` the lab put before it. */
export function withoutPrefix(line: string): string {
  return line.replace(/^\[worker [^\]]*\] (run \S+: )?/, '').trim();
}

/** The line that says what went wrong, not the runtime's sign-off ("Node.js v20…") after it. */
export function failureLine(logTail: string): string {
  const said = logTail.split('\n').map(withoutPrefix);
  return (said.find((l) => /error/i.test(l)) ?? said.filter(Boolean).at(-1) ?? 'no output').slice(0, 300);
}

/**
 * The run's recorded lives, with any left running by a lab worker that was itself killed marked
 * dead (and its process group killed, if it is somehow still there).
 */
export function settleOldLives(
  dir: string,
  runId: string,
  log: (line: string) => void,
): { lives: WorkerLife[]; orphans: number } {
  const lives = readLives(dir, runId);
  const orphans = lives.filter((l) => l.exitedAt === null);
  if (!orphans.length) return { lives, orphans: 0 };
  for (const l of orphans) {
    if (l.pid && isProcessAlive(l.pid)) process.kill(-l.pid, 'SIGKILL');
    // Its lab worker died with it, so nobody saw the moment: now is the latest it can have been.
    Object.assign(l, { exitedAt: Date.now(), signal: 'SIGKILL', logTail: `${l.logTail}\n(found dead later)`.trim() });
    log(`run ${runId}: worker ${l.name} (pid ${l.pid}) died with its lab worker`);
  }
  writeLives(dir, runId, lives);
  return { lives, orphans: orphans.length };
}

export function startChild(o: {
  dir: string;
  run: LabRun;
  name: string;
  /** The run's earlier lives, this one is written after them. */
  lives: readonly WorkerLife[];
  adapter: RuntimeAdapter;
  crash: string | null;
  out: (line: string) => void;
  /** Called once its end is in its lives; `closed` resolves once what it returns has settled. */
  onExit: (c: Child) => Promise<void>;
}): Child {
  const id = o.run.handle.runId;
  // A process per run whatever the module's worker model: the lab gives every run a queue of its
  // own (no RuntimeEnv.sharedQueue), so a queue runtime's worker serves this run alone, and the
  // process a reader kills is one run's. `workerExitsWhenDone` says whether it leaves by itself.
  const spec = o.adapter.workerSpec(o.run.handle, { name: o.name, crashPlan: o.crash });
  // Lines are read only after this function has returned: by then the pid is known and `child` exists.
  let prefix = '';
  const worker = new WorkerProcess(
    o.name,
    { ...spec, env: { ...spec.env, TRACE_STEPS: '1' } },
    {
      ownGroup: true,
      onLine: (stream, text) => {
        if (!text.trim()) return;
        child.lastLine = text;
        const line = text.startsWith('[worker ') ? text : `${prefix} ${text}`;
        if (stream === 'out') o.out(line);
        else process.stderr.write(`${line}\n`);
      },
    },
  );
  const life = worker.life;
  prefix = `[worker ${o.name} pid ${life.pid}] run ${id}:`;
  writeLives(o.dir, id, [...o.lives, life]);
  const child: Child = { run: o.run, worker, life, stopping: false, closed: Promise.resolve(), lastLine: '' };
  child.closed = worker.exited.then(() => {
    const all = readLives(o.dir, id);
    writeLives(
      o.dir,
      id,
      all.map((l) => (l.pid === life.pid && l.startedAt === life.startedAt ? life : l)),
    );
    const handled = o.onExit(child);
    return new Promise<void>((resolve) => void handled.finally(resolve));
  });
  return child;
}

/** Asks the child to go (it is not a crash) and waits until its exit has been handled. */
export async function stopChild(c: Child, signal: NodeJS.Signals): Promise<void> {
  c.stopping = true;
  c.worker.signal(signal);
  await c.closed;
}
