import { isTerminal } from '@vendor-review/pipeline';
import { notNowPauseMs, POLICIES, reportWorkerGone } from '@vendor-review/conformance';
import { failureLine, stopChild, withoutPrefix, type Child } from './worker-child.ts';
import type { LabWorkerState } from './worker-state.ts';

/**
 * How a lab worker takes the end of a worker process: stopped by the lab, killed by someone (the
 * crash: the machine is down), left while a lease held (retried once it lapses), done, or failed
 * (left alone); and how the lab worker itself stops, taking every other worker process with it.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const processes = (n: number) => `${n} worker process${n > 1 ? 'es' : ''}`;

/** A child has exited; killed by someone, the machine is down from this moment, before anything else can start. */
export function childExited(s: LabWorkerState, c: Child): Promise<void> {
  const id = c.run.handle.runId;
  if (c.life.signal && !c.stopping) s.ending ??= { code: 1, why: `worker ${c.life.name} of run ${id} was killed` };
  s.children.delete(id);
  s.setChildren();
  const handled = judgeExit(s, c);
  s.exits.push(handled);
  return handled;
}

async function judgeExit(s: LabWorkerState, c: Child): Promise<void> {
  const id = c.run.handle.runId;
  const { exitCode, signal, name, pid } = c.life;
  if (c.stopping && !s.stopped()) {
    // Stopped by the lab because its run is over (a Temporal worker serves until told).
    s.lab(`run ${id}: worker ${name} (pid ${pid}) stopped, its run is over`);
    return;
  }
  if (c.stopping) return;
  const notes = s.notesOf(id);
  if (signal) {
    // Someone killed it: the crash. Read what is durable before anything else runs; the restart
    // meets whatever it held, unless the lab's policy says to report it gone.
    const durable = await s.durableAtDeath(c);
    if (POLICIES.lab.reportsGone) await reportWorkerGone(s.adapter, c.run.handle, c.life).catch(() => {});
    s.lab(
      `run ${id}: worker ${name} (pid ${pid}) was killed by ${signal}; its last line: ${withoutPrefix(c.lastLine)}`,
    );
    s.lab(`run ${id}: durable when it died: ${durable}`);
    // The world books the call the dead worker left half-way once its connection closes: a moment.
    await sleep(200);
    await s.ledger.print(id);
    return;
  }
  if (s.adapter.isRetryableExit(exitCode)) {
    // The dead worker's hold (a lease) has not lapsed yet: the lab's policy retries once it has.
    if (!notes.retry) s.lab(`run ${id}: the dead worker's lease still holds the run; retrying when it expires`);
    notes.retry = { name, notBefore: Date.now() + (await notNowPauseMs(s.adapter, c.run.handle)) };
    return;
  }
  notes.retry = null;
  const view = await s.adapter.status(c.run.handle).catch(() => null);
  if (exitCode === 0 && view && isTerminal(view.status)) {
    s.lab(`run ${id}: worker ${name} (pid ${pid}) exited, its run ${view.status}`);
    return;
  }
  notes.givenUp = true;
  s.lab(
    `run ${id}: worker ${name} exited with code ${exitCode} and the run ${view?.status ?? 'unknown'}: ${failureLine(c.life.logTail)}. ` +
      'This lab worker leaves it alone; start it again to try once more.',
  );
}

/** The lab worker stops: every worker process still alive is killed, and the exit code says why. */
export async function stopLabWorker(s: LabWorkerState): Promise<number> {
  const ending = s.ending;
  if (ending) {
    await Promise.all(s.exits);
    const others = await crashAll(s, 'the machine goes down with it');
    s.lab(
      `${ending.why}${others ? ` (and ${processes(others)} with it)` : ''}: ` +
        `this lab worker stops. Start it again to resume: pnpm lab worker ${s.o.runtime}`,
    );
    return ending.code;
  }
  const killed = await crashAll(s, s.interrupted === 'SIGINT' ? 'Ctrl-C' : s.interrupted!);
  s.lab(
    killed
      ? `stopped: ${processes(killed)} killed mid-run. Start it again to resume: pnpm lab worker ${s.o.runtime}`
      : 'stopped (no worker process was running)',
  );
  return killed ? 130 : 0;
}

/** Ctrl-C, or one worker killed: every other worker process dies too, as on a lost machine. */
async function crashAll(s: LabWorkerState, why: string): Promise<number> {
  const victims = [...s.children.values()];
  for (const c of victims) c.stopping = true;
  await Promise.all(victims.map((c) => stopChild(c, 'SIGKILL')));
  if (victims.length) await sleep(200);
  for (const c of victims) {
    s.lab(
      `run ${c.run.handle.runId}: ${why}: killed worker ${c.life.name} (pid ${c.life.pid}) with SIGKILL; durable: ${await s.durableAtDeath(c)}`,
    );
    await s.ledger.print(c.run.handle.runId);
  }
  return victims.length;
}
