import { isTerminal, type RunStatus } from '@vendor-review/pipeline';
import { followRun } from '@vendor-review/conformance';
import { handleLabel } from './config.ts';
import { listRuns, readAtCrash, type LabRun } from './runs.ts';
import { openRuntime } from './runtimes.ts';
import type { LabState } from './state.ts';
import { nextName, settleOldLives, startChild, stopChild, type Child } from './worker-child.ts';
import { childExited, stopLabWorker } from './worker-exits.ts';
import { openSession } from './worker-session.ts';
import { LabWorkerState, type LabWorkerOptions } from './worker-state.ts';

const POLL_MS = 300;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `pnpm lab worker <runtime>`: the worker a reader crashes by hand. It takes every run started in
 * this lab for its runtime that needs an owner (not finished, not already run by this worker),
 * optionally only one variant or durability, and runs each in a worker process of its own, started
 * exactly as `pnpm compare` starts one (the adapter's workerSpec) plus TRACE_STEPS, so the process
 * prints each step as it starts and ends and each call it makes. Beside those lines it prints what
 * the world billed for each model call, from the world's ledger. Each run is followed to its end
 * as `pnpm compare` follows one (followRun), never approved: the reader approves with `pnpm lab approve`.
 *
 * One lab worker is one machine: when a worker process is killed (kill -9 from another terminal,
 * or Ctrl-C here, which the lab turns into SIGKILL for every worker process), the lab worker reads
 * the run's durable record while nothing is alive, records the death, and stops. Starting it again
 * is the restart whose repeats `pnpm lab show` counts.
 */
export async function runLabWorker(dir: string, state: LabState, o: LabWorkerOptions): Promise<number> {
  const session = openSession(dir, o.runtime);
  const started = await openRuntime(state, o.runtime).catch((err: unknown) => {
    session.end();
    throw err;
  });
  const s = new LabWorkerState(dir, state, o, session, started.adapter);
  greet(s);
  const onSignal = (signal: NodeJS.Signals) => {
    s.interrupted ??= signal;
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    await supervise(s);
    return await stopLabWorker(s);
  } finally {
    for (const signal of SIGNALS) process.removeListener(signal, onSignal);
    await close(s);
  }
}

function greet(s: LabWorkerState): void {
  s.lab(
    `${s.title} lab worker, pid ${process.pid}: takes this lab's ${s.title} runs that need an owner (${s.takes}), ` +
      'each in a worker process of its own that prints its steps; the world prints what it billed.',
  );
  s.lab('to crash it: kill -9 <the pid in a [worker …] line> from another terminal, or Ctrl-C here (SIGKILL for them)');
}

/** Until a signal or a killed worker stops it: every run that needs an owner given a worker process. */
async function supervise(s: LabWorkerState): Promise<void> {
  while (!s.stopped()) {
    await takeRuns(s);
    for (let waited = 0; waited < POLL_MS && !s.stopped(); waited += 50) await sleep(50);
  }
}

/** Nothing left running: no worker process, no follower, no session, no connection. */
async function close(s: LabWorkerState): Promise<void> {
  await Promise.all([...s.children.values()].map((c) => stopChild(c, 'SIGKILL')));
  await Promise.all(s.follows);
  s.session.end();
  await s.adapter.close().catch(() => undefined);
}

function wants(o: LabWorkerOptions, r: LabRun): boolean {
  return (
    r.runtime === o.runtime &&
    (!o.variant || r.handle.config.variant === o.variant) &&
    (!o.durability || r.handle.config.durability === o.durability)
  );
}

/** The runs that need an owner, each given a worker process (and its follower). */
async function takeRuns(s: LabWorkerState): Promise<void> {
  for (const run of listRuns(s.dir)) {
    if (s.stopped()) return;
    const id = run.handle.runId;
    const notes = s.notes.get(id);
    // A run with a child is its follower's.
    if (run.runtime !== s.o.runtime || notes?.givenUp || s.children.has(id)) continue;
    const view = await s.adapter.status(run.handle).catch(() => null);
    if (!view) continue;
    if (isTerminal(view.status) || view.status === 'not-found') continue;
    if (!wants(s.o, run)) {
      const n = s.notesOf(id);
      if (!n.refused) s.lab(`not taking run ${id} (${handleLabel(run.handle)}): this worker takes ${s.takes}`);
      n.refused = true;
      continue;
    }
    const retry = notes?.retry;
    if (retry && Date.now() < retry.notBefore) continue;
    const n = s.notesOf(id);
    if (n.status === null) {
      s.lab(`taking run ${id} (${s.title} ${handleLabel(run.handle)}, ${view.status})`);
      n.status = view.status;
      await s.ledger.skipToNow(id);
    }
    await start(s, run, retry?.name);
  }
}

/** The run's next worker process, after marking dead any its last lab worker left behind, and its follower. */
async function start(s: LabWorkerState, run: LabRun, name?: string): Promise<void> {
  const id = run.handle.runId;
  const { lives, orphans } = settleOldLives(s.dir, id, (line) => s.lab(line));
  if (orphans && !readAtCrash(s.dir, id)) await s.snapshot(run);
  const child = startChild({
    dir: s.dir,
    run,
    name: name ?? nextName(lives),
    lives,
    adapter: s.adapter,
    crash: s.o.crash,
    out: (line) => s.out(line),
    onExit: (c) => childExited(s, c),
  });
  s.children.set(id, child);
  s.setChildren();
  const followed = follow(s, child).finally(() => s.follows.delete(followed));
  s.follows.add(followed);
}

function announce(s: LabWorkerState, id: string, status: RunStatus): void {
  const n = s.notesOf(id);
  if (status === n.status) return;
  n.status = status;
  if (status === 'awaiting-approval')
    s.lab(`run ${id} is waiting for approval: pnpm lab approve ${id}   (or --reject)`);
  else if (isTerminal(status)) s.lab(`run ${id} ${status}: pnpm lab show ${id}`);
}

/**
 * The child's run, from its start to its end or the child's: its status changes said, the world's
 * lines printed at each poll (one read at a time), and a worker that serves until told (a queue's)
 * stopped once the run is over and its mail is out, as the crash cell waits for it (delivery.ts).
 * Its final read, after the child has exited, says how a run whose child left by itself ended.
 */
async function follow(s: LabWorkerState, c: Child): Promise<void> {
  const id = c.run.handle.runId;
  const servesUntilTold = !s.adapter.workerExitsWhenDone;
  let printing = false;
  try {
    const end = await followRun({
      adapter: s.adapter,
      handle: c.run.handle,
      workers: () => [c.worker],
      // The reader approves when they will: minutes, or never.
      boundMs: Infinity,
      approve: false,
      pollMs: POLL_MS,
      // A worker that leaves by itself is not held up by the mail: only one the lab stops waits for it.
      ...(servesUntilTold ? { worldUrl: s.state.worldUrl } : {}),
      onView: (view) => {
        if (!view) return;
        announce(s, id, view.status);
        if (printing) return;
        printing = true;
        void s.ledger.print(id).finally(() => (printing = false));
      },
    });
    if (end.end === 'terminal' && servesUntilTold && c.worker.alive && !c.stopping && !s.stopped())
      await stopChild(c, 'SIGTERM');
  } catch (err) {
    // Its status past the tolerance, or the world's ledger, would not answer: the lab worker goes on.
    s.lab(`run ${id}: no longer followed (${String(err).split('\n')[0]}); its worker runs on`);
  }
}
