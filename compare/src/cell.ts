import type { ReviewRequestInput, ReviewState } from '@vendor-review/domain';
import { worldClient } from '@vendor-review/domain/world';
import { fetchLedger, type LedgerEntry } from './ledger.ts';
import type { DurableRecord } from './durable.ts';
import type { CellObservation, CellStatus, WorkerLife } from './observation.ts';
import type { RunHandle, RunView, RuntimeAdapter } from './runtimes/adapter.ts';
import type { Scenario } from './scenarios.ts';
import { WorkerProcess } from './worker-process.ts';

/**
 * One cell, for real: a fresh business run; worker A (a child process with the crash plan) runs
 * until it kills itself; the durable record is read while no worker is alive; for a run that waits
 * for a human the approval is sent now, with nobody listening; worker B (a new process, no plan)
 * resumes and the run completes — or is declared stuck when a phase outlives its bound.
 */
export interface CellDeps {
  adapter: RuntimeAdapter;
  worldUrl: string;
  request: ReviewRequestInput;
  /** Bound of one waiting phase (A until the crash, B until done). */
  boundMs: number;
  pollMs?: number;
}

type PhaseEnd =
  | { reason: 'exit' }
  | { reason: 'terminal'; view: RunView }
  | { reason: 'timeout' }
  | { reason: 'gone'; view: RunView };

const TERMINAL = new Set(['completed', 'failed']);
const MAIL_GRACE_MS = 8000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A completed, approved run has delivered once its mail shows in the ledger (an outbox may send after the graph ends). */
function needsMail(view: RunView): boolean {
  return view.status === 'completed' && view.state?.approval?.approved !== false;
}

async function mailSeen(worldUrl: string, runId: string): Promise<boolean> {
  const entries = await fetchLedger(worldUrl, runId).catch(() => [] as LedgerEntry[]);
  return entries.some((e) => e.kind === 'mail' && (e.outcome === 'ok' || e.outcome === 'deduplicated'));
}

/** A cell that could not run at all still gets a row: it is reported, never dropped. */
export function errorObservation(scenario: Scenario, repetition: number, note: string): CellObservation {
  const now = Date.now();
  return {
    scenario,
    repetition,
    runId: '(not created)',
    runtimeIds: {},
    link: null,
    durability: scenario.durability,
    status: 'error',
    note,
    startedAt: now,
    endedAt: now,
    crash: null,
    workers: [],
    ledger: [],
    durableAtCrash: null,
    durableFinal: null,
    finalState: null,
    approvals: [],
  };
}

export async function runCell(scenario: Scenario, repetition: number, deps: CellDeps): Promise<CellObservation> {
  const { adapter, worldUrl, boundMs } = deps;
  const pollMs = deps.pollMs ?? 200;
  const startedAt = Date.now();
  const workers: WorkerProcess[] = [];
  const approvals: CellObservation['approvals'] = [];
  let approved = false;
  let handle: RunHandle | null = null;
  let status: CellStatus = 'error';
  let note: string | null = null;
  let durableAtCrash: DurableRecord | null = null;
  // Written inside closures; an object keeps TypeScript from narrowing it to its initial null.
  const last: { view: RunView | null; error: string | null } = { view: null, error: null };

  const approve = async (aliveWorker: string | null) => {
    await adapter.approve(handle!);
    approved = true;
    approvals.push({ at: Date.now(), aliveWorker });
  };

  /** Polls the run while `worker` lives: approves when allowed, stops at terminal (mail delivered), exit, or the bound. */
  const drive = async (
    worker: WorkerProcess | null,
    opts: { approveNow: boolean; stopAtTerminal: boolean },
  ): Promise<PhaseEnd> => {
    const deadline = Date.now() + boundMs;
    let statusErrors = 0;
    let terminalSince: number | null = null;
    for (;;) {
      if (worker && !worker.alive) return { reason: 'exit' };
      let view: RunView | null = null;
      try {
        view = await adapter.status(handle!);
        last.view = view;
        statusErrors = 0;
      } catch (err) {
        // A database or server hiccup while a worker is being killed next door is not the run's fault.
        last.error = err instanceof Error ? err.message : String(err);
        if (++statusErrors > 20) throw err;
      }
      if (view) {
        if (view.status === 'not-found') return { reason: 'gone', view };
        if (view.status === 'awaiting-approval' && !approved && opts.approveNow)
          await approve(worker?.life.name ?? null);
        if (opts.stopAtTerminal && TERMINAL.has(view.status)) {
          terminalSince ??= Date.now();
          // An outbox may deliver after the run ends; give it a moment, then judge what the world saw.
          if (
            !needsMail(view) ||
            (await mailSeen(worldUrl, handle!.runId)) ||
            Date.now() - terminalSince > MAIL_GRACE_MS
          )
            return { reason: 'terminal', view };
        }
      }
      if (Date.now() > deadline) return { reason: 'timeout' };
      if (worker) await Promise.race([sleep(pollMs), worker.exited]);
      else await sleep(pollMs);
    }
  };

  const stopWorker = async (w: WorkerProcess) => {
    if (!w.alive) return;
    // LangGraph workers leave by themselves once the run is terminal; give them a moment first.
    if (adapter.workerExitsWhenDone) await Promise.race([w.exited, sleep(3000)]);
    await w.stop(3000);
  };

  const finishFrom = (end: PhaseEnd, phase: string): void => {
    if (end.reason === 'terminal') {
      status = end.view.status === 'completed' ? 'completed' : 'failed';
      if (status === 'failed')
        note = `the run ended failed${end.view.state?.failure ? ` in ${end.view.state.failure.step}: ${end.view.state.failure.error}` : ''}`;
    } else if (end.reason === 'timeout') {
      status = 'stuck';
      note = `${phase}: no terminal state within ${Math.round(boundMs / 1000)} s (last status: ${last.view?.status ?? 'unknown'}${last.error ? `; last error: ${last.error}` : ''})`;
    } else if (end.reason === 'gone') {
      status = 'lost';
      note = end.view.reason ?? 'the runtime no longer knows this run';
    }
  };

  try {
    handle = await adapter.createRun(scenario, deps.request);
    if (scenario.faults.length) {
      const world = worldClient(worldUrl);
      for (const f of scenario.faults) await world.addFault({ ...f, runId: handle.runId });
    }
    const a = new WorkerProcess('A', adapter.workerSpec(handle, scenario.crashPoint));
    workers.push(a);

    if (scenario.crashPoint === null) {
      const end = await drive(a, { approveNow: true, stopAtTerminal: true });
      if (end.reason === 'exit') {
        // A LangGraph worker that exits 0 has finished; read the verdict once more.
        const v = await adapter.status(handle);
        last.view = v;
        finishFrom(TERMINAL.has(v.status) ? { reason: 'terminal', view: v } : { reason: 'timeout' }, 'worker A');
        if (!TERMINAL.has(v.status)) {
          status = 'error';
          note = `worker A exited (${a.life.signal ?? `code ${a.life.exitCode}`}) with the run still ${v.status}: ${a.life.logTail.split('\n').slice(-3).join(' | ')}`;
        }
      } else {
        finishFrom(end, 'worker A');
      }
      await stopWorker(a);
    } else {
      const end = await drive(a, { approveNow: scenario.crashPoint !== 'awaiting-approval', stopAtTerminal: true });
      if (end.reason !== 'exit') await a.kill();
      const life = await a.exited;
      if (!life.crash || life.signal !== 'SIGKILL') {
        status = end.reason === 'timeout' ? 'stuck' : 'error';
        note =
          end.reason === 'terminal'
            ? `the crash point ${scenario.crashPoint} was never reached: the run finished without it`
            : end.reason === 'timeout'
              ? `worker A did not reach ${scenario.crashPoint} within ${Math.round(boundMs / 1000)} s (status ${last.view?.status ?? 'unknown'}${last.error ? `; last error: ${last.error}` : ''}})${life.logTail ? `; worker A said: ${life.logTail.split('\n').slice(-2).join(' | ').slice(0, 300)}` : ''}`
              : `worker A ended (${life.signal ?? `exit code ${life.exitCode}`}) without reaching ${scenario.crashPoint}: ${life.logTail.split('\n').slice(-3).join(' | ')}`;
      } else {
        durableAtCrash = await adapter.durableRecord(handle).catch(() => null);
        if (scenario.crashPoint === 'awaiting-approval' && !approved) await approve(null);
        const phaseDeadline = Date.now() + boundMs;
        let b = new WorkerProcess('B', adapter.workerSpec(handle, null));
        workers.push(b);
        let endB = await drive(b, { approveNow: true, stopAtTerminal: true });
        // "Lease still held by the dead worker": restart B, as a supervisor would, until the bound.
        while (
          endB.reason === 'exit' &&
          adapter.isRetryableExit((await b.exited).exitCode) &&
          Date.now() < phaseDeadline
        ) {
          await sleep(250);
          b = new WorkerProcess('B', adapter.workerSpec(handle, null));
          workers.push(b);
          endB = await drive(b, { approveNow: true, stopAtTerminal: true });
        }
        if (endB.reason === 'exit') {
          // B left by itself: done, or nothing to resume from. Let the final status decide.
          const v = await adapter.status(handle);
          last.view = v;
          if (TERMINAL.has(v.status)) endB = { reason: 'terminal', view: v };
          else if (v.status === 'not-found') endB = { reason: 'gone', view: v };
          else {
            const bl = await b.exited;
            const nothingDurable = !durableAtCrash || durableAtCrash.marks.length === 0;
            status = nothingDurable ? 'lost' : 'failed';
            note = `worker B exited (${bl.signal ?? `code ${bl.exitCode}`}) with the run ${v.status}${nothingDurable ? ': nothing durable to resume from' : ''}: ${bl.logTail.split('\n').slice(-2).join(' | ')}`;
          }
        }
        if (endB.reason !== 'exit') finishFrom(endB, 'worker B');
        await stopWorker(b);
      }
    }
  } catch (err) {
    status = 'error';
    note = `the cell could not run: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    await Promise.all(workers.map((w) => w.kill()));
  }

  const [ledger, durableFinal, finalView] = handle
    ? await Promise.all([
        fetchLedger(worldUrl, handle.runId).catch(() => [] as LedgerEntry[]),
        adapter.durableRecord(handle).catch(() => null),
        adapter.inspect(handle).catch(() => last.view),
      ])
    : [[] as LedgerEntry[], null, null];
  const lives: WorkerLife[] = workers.map((w) => w.life);
  if (
    (status as CellStatus) === 'completed' &&
    finalView?.state?.approval?.approved !== false &&
    !ledger.some((e) => e.kind === 'mail' && e.outcome !== 'fault')
  ) {
    note = [note, 'the run says completed, but the world never received its mail'].filter(Boolean).join('; ');
  }
  return {
    scenario,
    repetition,
    runId: handle?.runId ?? '(not created)',
    runtimeIds: handle?.runtimeIds ?? {},
    link: handle?.link ?? null,
    durability: handle?.durability ?? scenario.durability,
    status,
    note,
    startedAt,
    endedAt: Date.now(),
    crash: lives.find((l) => l.name === 'A')?.crash ?? null,
    workers: lives,
    ledger,
    durableAtCrash,
    durableFinal,
    finalState: (finalView?.state as ReviewState | null | undefined) ?? null,
    approvals,
  };
}
