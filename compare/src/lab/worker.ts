import { isTerminal, type Durability, type RunStatus, type Variant } from '@vendor-review/pipeline';
import {
  type RuntimeAdapter,
  followRun,
  lastDurableBefore,
  notNowPauseMs,
  POLICIES,
  reportWorkerGone,
  operationLabel,
} from '@vendor-review/conformance';
import { isProcessAlive, WorkerProcess, type WorkerLife } from '@vendor-review/testbed';
import { worldClient, type LedgerEntry } from '@vendor-review/world';
import { money } from '../table.ts';
import { handleLabel } from './config.ts';
import { listRuns, readAtCrash, readLives, saveAtCrash, writeLives, type LabRun } from './runs.ts';
import { openRuntime, titleOf } from './runtimes.ts';
import type { LabRuntime, LabState } from './state.ts';
import { openSession, type WorkerSession } from './worker-session.ts';

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
export interface LabWorkerOptions {
  runtime: LabRuntime;
  variant: Variant | null;
  durability: Durability | null;
  /**
   * A crash plan for the worker processes it starts (`pnpm lab worker … --crash after-model`): the
   * instrument kills the process at that point, as a crash cell's worker A dies; null for none.
   */
  crash: string | null;
}

interface Child {
  run: LabRun;
  worker: WorkerProcess;
  /** `worker.life`: written to the run's lives as it starts and again once it has ended. */
  life: WorkerLife;
  /** The lab asked it to go (the run ended, or the machine is going down): not a crash. */
  stopping: boolean;
  closed: Promise<void>;
  lastLine: string;
}

const POLL_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A, B, … Z, then W27, W28: the names `pnpm compare` gives its workers, per run. */
function nameFor(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : `W${index + 1}`;
}

export async function runLabWorker(dir: string, state: LabState, o: LabWorkerOptions): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const lab = (line: string) => out(`[lab] ${line}`);
  const session: WorkerSession = openSession(dir, o.runtime);
  const started = await openRuntime(state, o.runtime).catch((err: unknown) => {
    session.end();
    throw err;
  });
  const adapter: RuntimeAdapter = started.adapter;
  const world = worldClient(state.worldUrl);
  const title = titleOf(o.runtime);
  const children = new Map<string, Child>();
  const givenUp = new Set<string>();
  const announced = new Set<string>();
  const lastStatus = new Map<string, RunStatus>();
  const ledgerSeen = new Map<string, number>();
  /** The exits being handled (judged, a crash's record read): the lab worker ends after them. */
  const exits: Promise<void>[] = [];
  /** The runs being followed (followRun), one per child: ended before the adapter closes. */
  const follows = new Set<Promise<void>>();
  const retryAt = new Map<string, { name: string; notBefore: number }>();
  /** Ctrl-C (or another stop signal) to this process. */
  let interrupted: NodeJS.Signals | null = null;
  // Set from the exit handlers; an object so the main loop's reads are not narrowed away.
  const stop: { ending: { code: number; why: string } | null } = { ending: null };

  const wanted = (r: LabRun) =>
    r.runtime === o.runtime &&
    (!o.variant || r.handle.config.variant === o.variant) &&
    (!o.durability || r.handle.config.durability === o.durability);
  const filter = [o.variant, o.durability && `durability ${o.durability}`].filter(Boolean).join(', ') || 'any variant';
  lab(
    `${title} lab worker, pid ${process.pid}: takes this lab's ${title} runs that need an owner (${filter}), ` +
      'each in a worker process of its own that prints its steps; the world prints what it billed.',
  );
  lab('to crash it: kill -9 <the pid in a [worker …] line> from another terminal, or Ctrl-C here (SIGKILL for them)');

  const setChildren = () => session.setChildren([...children.values()].map((c) => c.life.pid!).filter(Boolean));

  /** The run's recorded lives, with any left running by a lab worker that was itself killed marked dead. */
  const settleOldLives = async (run: LabRun): Promise<WorkerLife[]> => {
    const lives = readLives(dir, run.handle.runId);
    const orphans = lives.filter((l) => l.exitedAt === null);
    if (!orphans.length) return lives;
    for (const l of orphans) {
      if (l.pid && isProcessAlive(l.pid)) process.kill(-l.pid, 'SIGKILL');
      // Its lab worker died with it, so nobody saw the moment: now is the latest it can have been.
      Object.assign(l, { exitedAt: Date.now(), signal: 'SIGKILL', logTail: `${l.logTail}\n(found dead later)`.trim() });
      lab(`run ${run.handle.runId}: worker ${l.name} (pid ${l.pid}) died with its lab worker`);
    }
    writeLives(dir, run.handle.runId, lives);
    if (!readAtCrash(dir, run.handle.runId)) await snapshot(run);
    return lives;
  };

  /** What is durable while no worker of the run is alive: the "last durable" of the evidence. */
  const snapshot = async (run: LabRun) => {
    const record = await adapter.durableRecord(run.handle).catch(() => null);
    if (record) saveAtCrash(dir, run.handle.runId, record);
    return record;
  };

  const ledgerTurns = new Map<string, Promise<void>>();
  /** The run's ledger lines not printed yet; one read at a time per run, so none is printed twice. */
  const printLedger = (run: LabRun): Promise<void> => {
    const id = run.handle.runId;
    const turn = (ledgerTurns.get(id) ?? Promise.resolve()).then(() => printNewEntries(run));
    ledgerTurns.set(id, turn);
    return turn;
  };
  const printNewEntries = async (run: LabRun) => {
    const id = run.handle.runId;
    const entries: LedgerEntry[] = await world.ledger({ runId: id }).catch(() => []);
    const seen = ledgerSeen.get(id) ?? 0;
    for (const e of entries.filter((x) => x.seq > seen)) {
      const who = `worker ${e.worker ?? '?'}, ${e.step ?? '?'}${e.attempt ? ` attempt ${e.attempt}` : ''}`;
      if (e.kind === 'model') {
        const aborted =
          e.outcome === 'aborted' ? ' (aborted: the worker left before the answer; billed all the same)' : '';
        out(
          `[world] run ${id}: billed a model call by ${who}: ${e.promptTokens} prompt + ${e.completionTokens} completion tokens = ${money(e.costUsd)}${aborted}`,
        );
      } else if (e.kind === 'mail' || e.kind === 'tracker') {
        const what = e.outcome === 'deduplicated' ? 'recognised its key: nothing new' : e.outcome;
        out(`[world] run ${id}: ${operationLabel(e)} from ${who}: ${what}`);
      }
    }
    if (entries.length) ledgerSeen.set(id, Math.max(seen, ...entries.map((e) => e.seq)));
  };

  const spawnWorker = async (run: LabRun, name?: string) => {
    const id = run.handle.runId;
    const lives = await settleOldLives(run);
    const workerName = name ?? nameFor(lives.length ? new Set(lives.map((l) => l.name)).size : 0);
    // A process per run whatever the module's worker model: the lab gives every run a queue of its
    // own (no RuntimeEnv.sharedQueue), so a queue runtime's worker serves this run alone, and the
    // process a reader kills is one run's. `workerExitsWhenDone` says whether it leaves by itself.
    const spec = adapter.workerSpec(run.handle, { name: workerName, crashPlan: o.crash });
    // Lines are read only after this function has returned: by then the pid is known and `child` exists.
    let prefix = '';
    const worker = new WorkerProcess(
      workerName,
      { ...spec, env: { ...spec.env, TRACE_STEPS: '1' } },
      {
        ownGroup: true,
        onLine: (stream, text) => {
          if (!text.trim()) return;
          child.lastLine = text;
          const line = text.startsWith('[worker ') ? text : `${prefix} ${text}`;
          if (stream === 'out') out(line);
          else process.stderr.write(`${line}\n`);
        },
      },
    );
    const life = worker.life;
    prefix = `[worker ${workerName} pid ${life.pid}] run ${id}:`;
    writeLives(dir, id, [...lives, life]);
    const child: Child = {
      run,
      worker,
      life,
      stopping: false,
      closed: Promise.resolve(),
      lastLine: '',
    };
    child.closed = worker.exited.then(({ signal }) => {
      // Killed by someone: the machine is down from this moment, before anything else can start.
      if (signal && !child.stopping) stop.ending ??= { code: 1, why: `worker ${workerName} of run ${id} was killed` };
      const all = readLives(dir, id);
      writeLives(
        dir,
        id,
        all.map((l) => (l.pid === life.pid && l.startedAt === life.startedAt ? life : l)),
      );
      children.delete(id);
      setChildren();
      const handled = onExit(child);
      exits.push(handled);
      return new Promise<void>((resolve) => void handled.finally(resolve));
    });
    children.set(id, child);
    setChildren();
    const followed = follow(child).finally(() => follows.delete(followed));
    follows.add(followed);
  };

  const announce = (id: string, status: RunStatus) => {
    if (status === lastStatus.get(id)) return;
    lastStatus.set(id, status);
    if (status === 'awaiting-approval')
      lab(`run ${id} is waiting for approval: pnpm lab approve ${id}   (or --reject)`);
    else if (isTerminal(status)) lab(`run ${id} ${status}: pnpm lab show ${id}`);
  };

  /**
   * The child's run, from its start to its end or the child's: its status changes said, the world's
   * lines printed at each poll (one read at a time), and a worker that serves until told (a queue's)
   * stopped once the run is over and its mail is out, as the crash cell waits for it (delivery.ts).
   * Its final read, after the child has exited, says how a run whose child left by itself ended.
   */
  const follow = async (c: Child) => {
    const id = c.run.handle.runId;
    const servesUntilTold = !adapter.workerExitsWhenDone;
    let printing = false;
    try {
      const end = await followRun({
        adapter,
        handle: c.run.handle,
        workers: () => [c.worker],
        // The reader approves when they will: minutes, or never.
        boundMs: Infinity,
        approve: false,
        pollMs: POLL_MS,
        // A worker that leaves by itself is not held up by the mail: only one the lab stops waits for it.
        ...(servesUntilTold ? { worldUrl: state.worldUrl } : {}),
        onView: (view) => {
          if (!view) return;
          announce(id, view.status);
          if (printing) return;
          printing = true;
          void printLedger(c.run).finally(() => (printing = false));
        },
      });
      if (end.end === 'terminal' && servesUntilTold && c.worker.alive && !c.stopping && !stop.ending && !interrupted)
        await stopChild(c, 'SIGTERM');
    } catch (err) {
      // Its status past the tolerance, or the world's ledger, would not answer: the lab worker goes on.
      lab(`run ${id}: no longer followed (${String(err).split('\n')[0]}); its worker runs on`);
    }
  };

  const onExit = async (c: Child) => {
    const id = c.run.handle.runId;
    const { exitCode, signal, name, pid } = c.life;
    if (c.stopping && !stop.ending && !interrupted) {
      // Stopped by the lab because its run is over (a Temporal worker serves until told).
      lab(`run ${id}: worker ${name} (pid ${pid}) stopped, its run is over`);
      return;
    }
    if (c.stopping) return;
    if (signal) {
      // Someone killed it: the crash. Read what is durable before anything else runs; the restart
      // meets whatever it held, unless the lab's policy says to report it gone.
      const record = await snapshot(c.run);
      if (POLICIES.lab.reportsGone) await reportWorkerGone(adapter, c.run.handle, c.life).catch(() => {});
      const last = lastDurableBefore(record, c.life.exitedAt);
      lab(
        `run ${id}: worker ${name} (pid ${pid}) was killed by ${signal}; its last line: ${c.lastLine.replace(/^\[worker [^\]]*\] (run \S+: )?/, '').trim()}`,
      );
      lab(`run ${id}: durable when it died: ${last.long}`);
      // The world books the call the dead worker left half-way once its connection closes: a moment.
      await sleep(200);
      await printLedger(c.run);
      return;
    }
    if (adapter.isRetryableExit(exitCode)) {
      // The dead worker's hold (a lease) has not lapsed yet: the lab's policy retries once it has.
      if (!retryAt.has(id)) lab(`run ${id}: the dead worker's lease still holds the run; retrying when it expires`);
      retryAt.set(id, { name, notBefore: Date.now() + (await notNowPauseMs(adapter, c.run.handle)) });
      return;
    }
    retryAt.delete(id);
    const view = await adapter.status(c.run.handle).catch(() => null);
    if (exitCode === 0 && view && isTerminal(view.status)) {
      lab(`run ${id}: worker ${name} (pid ${pid}) exited, its run ${view.status}`);
      return;
    }
    givenUp.add(id);
    // The line that says what went wrong, not the runtime's sign-off ("Node.js v20…") after it.
    const said = c.life.logTail.split('\n').map((l) => l.replace(/^\[worker [^\]]*\] (run \S+: )?/, '').trim());
    const tail = (said.find((l) => /error/i.test(l)) ?? said.filter(Boolean).at(-1) ?? 'no output').slice(0, 300);
    lab(
      `run ${id}: worker ${name} exited with code ${exitCode} and the run ${view?.status ?? 'unknown'}: ${tail}. ` +
        'This lab worker leaves it alone; start it again to try once more.',
    );
  };

  const stopChild = async (c: Child, signal: NodeJS.Signals) => {
    c.stopping = true;
    c.worker.signal(signal);
    await c.closed;
  };

  /** Ctrl-C, or one worker killed: every other worker process dies too, as on a lost machine. */
  const crashAll = async (why: string) => {
    const victims = [...children.values()];
    for (const c of victims) c.stopping = true;
    await Promise.all(victims.map((c) => stopChild(c, 'SIGKILL')));
    if (victims.length) await sleep(200);
    for (const c of victims) {
      const record = await snapshot(c.run);
      lab(
        `run ${c.run.handle.runId}: ${why}: killed worker ${c.life.name} (pid ${c.life.pid}) with SIGKILL; durable: ${lastDurableBefore(record, c.life.exitedAt).long}`,
      );
      await printLedger(c.run);
    }
    return victims.length;
  };

  const onSignal = (s: NodeJS.Signals) => {
    interrupted ??= s;
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, onSignal);

  /** The runs that need an owner, each given a worker process (and its follower). */
  const step = async () => {
    for (const run of listRuns(dir)) {
      if (stop.ending || interrupted) return;
      const id = run.handle.runId;
      // A run with a child is its follower's (spawnWorker).
      if (run.runtime !== o.runtime || givenUp.has(id) || children.has(id)) continue;
      const view = await adapter.status(run.handle).catch(() => null);
      if (!view) continue;
      if (isTerminal(view.status) || view.status === 'not-found') continue;
      if (!wanted(run)) {
        if (!announced.has(id)) lab(`not taking run ${id} (${handleLabel(run.handle)}): this worker takes ${filter}`);
        announced.add(id);
        continue;
      }
      const retry = retryAt.get(id);
      if (retry && Date.now() < retry.notBefore) continue;
      if (!lastStatus.has(id)) {
        lab(`taking run ${id} (${title} ${handleLabel(run.handle)}, ${view.status})`);
        lastStatus.set(id, view.status);
        // Only what happens from now on: the ledger so far belongs to earlier workers.
        ledgerSeen.set(id, Math.max(0, ...(await world.ledger({ runId: id }).catch(() => [])).map((e) => e.seq)));
      }
      await spawnWorker(run, retry?.name);
    }
  };

  try {
    while (!interrupted && !stop.ending) {
      await step();
      for (let waited = 0; waited < POLL_MS && !interrupted && !stop.ending; waited += 50) await sleep(50);
    }
    const ending = stop.ending;
    if (ending) {
      await Promise.all(exits);
      const others = await crashAll('the machine goes down with it');
      lab(
        `${ending.why}${others ? ` (and ${others} other worker process${others > 1 ? 'es' : ''} with it)` : ''}: ` +
          `this lab worker stops. Start it again to resume: pnpm lab worker ${o.runtime}`,
      );
      return ending.code;
    }
    const killed = await crashAll(interrupted === 'SIGINT' ? 'Ctrl-C' : interrupted!);
    lab(
      killed
        ? `stopped: ${killed} worker process${killed > 1 ? 'es' : ''} killed mid-run. Start it again to resume: pnpm lab worker ${o.runtime}`
        : 'stopped (no worker process was running)',
    );
    return killed ? 130 : 0;
  } finally {
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeListener(s, onSignal);
    await Promise.all([...children.values()].map((c) => stopChild(c, 'SIGKILL')));
    await Promise.all(follows);
    session.end();
    await adapter.close().catch(() => undefined);
  }
}
