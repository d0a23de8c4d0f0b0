import { sleep } from '@vendor-review/worker-io';
import { type Decision, type RunView, isTerminal, type ReviewRequestInput } from '@vendor-review/pipeline';
import { parseCrashLine, START_AGAIN_ENV, STOP_GRACE_MS } from '@vendor-review/instrument';
import { type RunHandle, type RuntimeAdapter } from './adapter.ts';
import { WorkerProcess, type WorkerLife } from '@vendor-review/testbed';
import { worldClient, type LedgerEntry } from '@vendor-review/world';
import { APPROVER, followRun, type Followed } from './follow.ts';
import type { CellObservation, CellStatus, HarnessCost, StopObservation } from './observation.ts';
import { POLICIES, supervise } from './production/supervisor.ts';
import type { Scenario } from './scenarios.ts';
import type { SpanLock } from './window/alone.ts';

/**
 * One cell, for real: a fresh business run; worker A (a child process armed with the crash plan)
 * runs until it kills itself; the durable record is read while no worker is alive; for a run that
 * waits for a human the approval is sent now, with nobody listening; worker B (a new process, no
 * plan) resumes and the run completes, or the cell says why not (stuck past its bound, lost, failed).
 */
export interface CellDeps {
  adapter: RuntimeAdapter;
  worldUrl: string;
  request: ReviewRequestInput;
  /** Bound of one waiting phase (A until the crash, B until done). */
  boundMs: number;
  pollMs?: number;
  /** The window suite's: every worker tracked, worker A's whole life measured with the others frozen (window/alone.ts). */
  spans?: SpanLock;
}

const APPROVAL: Decision = { approved: true, by: APPROVER };
type PhaseEnd =
  | { reason: 'exit' }
  | { reason: 'terminal'; view: RunView }
  | { reason: 'timeout' }
  | { reason: 'gone'; view: RunView };

/** What a cell accumulates while it runs; every phase reads and writes it. */
interface Cell {
  scenario: Scenario;
  deps: CellDeps;
  handle: RunHandle | null;
  workers: WorkerProcess[];
  approvals: CellObservation['approvals'];
  status: CellStatus;
  note: string | null;
  durableAtCrash: CellObservation['durableAtCrash'];
  lastView: RunView | null;
  lastError: string | null;
  stopping: StopObservation | null;
  harness: HarnessCost;
}

async function timed<T>(cost: HarnessCost, work: Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await work;
  } finally {
    cost.readMs += performance.now() - t;
  }
}

function tail(text: string, lines: number): string {
  return text.split('\n').slice(-lines).join(' | ').slice(0, 400);
}

async function ledgerOf(worldUrl: string, runId: string): Promise<LedgerEntry[]> {
  return (await worldClient(worldUrl).ledger({ runId })).filter((e) => e.runId === runId);
}

async function approve(cell: Cell, aliveWorker: string | null): Promise<void> {
  await cell.deps.adapter.approve(cell.handle!, APPROVAL);
  cell.approvals.push({ at: Date.now(), aliveWorker, decision: APPROVAL });
}

function noteView(cell: Cell, view: RunView | null, err?: unknown): void {
  if (view) cell.lastView = view;
  // A database or server hiccup while a worker is being killed next door is not the run's fault.
  else cell.lastError = err instanceof Error ? err.message : String(err);
}

function phaseEnd(end: Followed): PhaseEnd {
  if (end.view?.status === 'not-found') return { reason: 'gone', view: end.view };
  if (end.end === 'exited') return { reason: 'exit' };
  if (end.end === 'terminal' && end.view) return { reason: 'terminal', view: end.view };
  return { reason: 'timeout' };
}

/**
 * The run driven while `worker` lives (followRun): approved when allowed, ended at a terminal
 * status once its mail, if any, has reached the world, when the worker exits, or at the bound.
 */
async function drive(cell: Cell, worker: WorkerProcess, opts: { approveNow: boolean }): Promise<PhaseEnd> {
  return phaseEnd(
    await followRun({
      adapter: cell.deps.adapter,
      handle: cell.handle!,
      workers: () => [worker],
      boundMs: cell.deps.boundMs,
      pollMs: cell.deps.pollMs ?? 200,
      worldUrl: cell.deps.worldUrl,
      approve: opts.approveNow && cell.approvals.length === 0 ? () => approve(cell, worker.life.name) : false,
      cost: cell.harness,
      onView: (view, err) => noteView(cell, view, err),
      gate: () => quiet(cell),
    }),
  );
}

/** Waits while another cell's measured δ runs (the window suite's spans); at once elsewhere. */
async function quiet(cell: Cell): Promise<void> {
  await cell.deps.spans?.quiet(cell.workers);
}

/**
 * The run is over and its mail is in the world. A worker that leaves by itself once its run is
 * terminal gets a moment to, then is asked; one that serves its queue until told has nothing left
 * to do for this run, and how it would shut down is not what a cell measures: it is killed.
 */
async function stopWorker(cell: Cell, w: WorkerProcess): Promise<void> {
  if (!w.alive) return;
  if (!cell.deps.adapter.workerExitsWhenDone) {
    await w.kill();
    return;
  }
  await Promise.race([w.exited, sleep(3000)]);
  await w.stop(3000);
}

function lastStatus(cell: Cell): string {
  return `${cell.lastView?.status ?? 'unknown'}${cell.lastError ? `; last error: ${cell.lastError}` : ''}`;
}

function finish(cell: Cell, end: PhaseEnd, phase: string): void {
  if (end.reason === 'terminal') {
    cell.status = end.view.status === 'completed' ? 'completed' : 'failed';
    const failure = end.view.state?.failure;
    if (cell.status === 'failed')
      cell.note = `the run ended failed${failure ? ` in ${failure.step}: ${failure.error}` : ''}`;
  } else if (end.reason === 'timeout') {
    cell.status = 'stuck';
    cell.note = `${phase}: no terminal state within ${Math.round(cell.deps.boundMs / 1000)} s (last status: ${lastStatus(cell)})`;
  } else if (end.reason === 'gone') {
    cell.status = 'lost';
    cell.note = end.view.reason ?? 'the runtime no longer knows this run';
  }
}

/** A worker left by itself: read the run once more to learn whether it finished. */
async function afterExit(cell: Cell, w: WorkerProcess): Promise<PhaseEnd | null> {
  const view = await cell.deps.adapter.status(cell.handle!);
  cell.lastView = view;
  if (isTerminal(view.status)) return { reason: 'terminal', view };
  if (view.status === 'not-found') return { reason: 'gone', view };
  const life = await w.exited;
  const nothingDurable = !cell.durableAtCrash || cell.durableAtCrash.marks.length === 0;
  cell.status = w.life.name === 'A' ? 'error' : nothingDurable ? 'lost' : 'failed';
  cell.note = `worker ${w.life.name} exited (${life.signal ?? `code ${life.exitCode}`}) with the run ${view.status}${nothingDurable && w.life.name !== 'A' ? ': nothing durable to resume from' : ''}: ${tail(life.logTail, 2)}`;
  return null;
}

/** A worker of the cell, frozen while another cell's measured span runs (the window suite's). */
function track(cell: Cell, w: WorkerProcess): void {
  cell.workers.push(w);
  const untrack = cell.deps.spans?.track(w);
  if (untrack) void w.exited.then(untrack, untrack);
}

function startWorker(
  cell: Cell,
  name: string,
  crashPlan: string | null,
  env: Record<string, string> = {},
): WorkerProcess {
  const spec = cell.deps.adapter.workerSpec(cell.handle!, { name, crashPlan });
  const w = new WorkerProcess(name, { ...spec, env: { ...spec.env, ...env } });
  track(cell, w);
  return w;
}

/** Worker B; after a kill at the start call, one that makes the start call again with the same id (START_AGAIN_ENV). */
function resumerSpec(cell: Cell, name: string) {
  const spec = cell.deps.adapter.workerSpec(cell.handle!, { name, crashPlan: null });
  return cell.scenario.crashPoint === 'start-call' ? { ...spec, env: { ...spec.env, [START_AGAIN_ENV]: '1' } } : spec;
}

/** Phase 1: a fresh run, and its per-run world faults. */
async function startPhase(cell: Cell): Promise<void> {
  const { variant, durability, granularity } = cell.scenario;
  cell.handle = await cell.deps.adapter.startRun(
    cell.deps.request,
    { variant, durability, ...(granularity ? { granularity } : {}) },
    cell.scenario.crashPoint === 'start-call' ? { startInWorker: true } : undefined,
  );
  const world = worldClient(cell.deps.worldUrl);
  for (const f of cell.scenario.faults) await world.addFault({ ...f, runId: cell.handle.runId });
  if (cell.scenario.approveAtStart) await approve(cell, null);
}

/** The uncrashed baseline: worker A alone, to the end. */
async function baselinePhase(cell: Cell): Promise<void> {
  const a = startWorker(cell, 'A', null);
  const end = await drive(cell, a, { approveNow: true });
  const settled = end.reason === 'exit' ? await afterExit(cell, a) : end;
  if (settled) finish(cell, settled, 'worker A');
  await stopWorker(cell, a);
}

/**
 * A worker asked to stop: once it announces its SIGTERM (a `term` crash point), it gets `graceMs`
 * to leave, as an orchestrator gives it, and is SIGKILLed when the grace ends.
 */
export function graceAfterTerm(w: WorkerProcess, graceMs: number) {
  let termAt: number | null = null;
  let killed = false;
  let timer: NodeJS.Timeout | undefined;
  w.waitForLine(/^CRASHPOINT \S+ .*action=term\b/, 24 * 3600_000).then(
    (line) => {
      termAt = parseCrashLine(line)?.at ?? Date.now();
      timer = setTimeout(
        () => {
          if (!w.alive) return;
          killed = true;
          void w.kill();
        },
        Math.max(0, termAt + graceMs - Date.now()),
      );
      timer.unref();
    },
    () => {}, // it left before it ever reached the point
  );
  return {
    /** True once SIGTERM was announced. */
    get termed(): boolean {
      return termAt !== null;
    },
    /** How it left, once it has; null when it was never asked to stop. */
    observed(life: WorkerLife): StopObservation | null {
      clearTimeout(timer);
      if (termAt === null) return null;
      return {
        graceMs,
        termAt,
        left: killed ? 'killed' : life.signal ? 'signal' : 'exited',
        exitCode: life.exitCode,
        leftAfterMs: (life.exitedAt ?? Date.now()) - termAt,
      };
    },
  };
}

/**
 * Phase 2: worker A runs until its crash point kills it, or (`term`) until it leaves after being
 * asked to stop there. True when it died or was stopped there.
 */
async function crashPhase(cell: Cell): Promise<boolean> {
  // Measured alone (the window suite): worker A's whole life, from its start to its death, runs
  // with every other cell's worker frozen, so that nothing but A and the servers touched the
  // machine (its caches) between A's first step and its δ.
  const spans = cell.deps.spans && cell.scenario.killDelayMs !== undefined ? cell.deps.spans : null;
  return spans ? spans.alone(cell.workers, () => workerALife(cell)) : workerALife(cell);
}

async function workerALife(cell: Cell): Promise<boolean> {
  const point = cell.scenario.crashPoint!;
  const occurrence = cell.scenario.crashOccurrence ?? 1;
  const term = cell.scenario.stop === 'term';
  const delay = cell.scenario.killDelayMs;
  const a = startWorker(
    cell,
    'A',
    `${point}${occurrence > 1 ? `@${occurrence}` : ''}${delay !== undefined ? `+${delay}` : ''}${term ? ':term' : ''}`,
  );
  const grace = term ? graceAfterTerm(a, cell.scenario.graceMs ?? STOP_GRACE_MS) : null;
  const end = await drive(cell, a, {
    approveNow: point !== 'awaiting-approval' && !cell.scenario.approveAfterCrash,
  });
  // Asked to stop, it may finish the run itself before it leaves: the grace decides when it goes.
  if (end.reason !== 'exit' && !(grace?.termed && end.reason === 'terminal')) await a.kill();
  const life = await a.exited;
  const atPoint = life.crash?.point === point && life.crash.occurrence === occurrence;
  if (grace) {
    cell.stopping = grace.observed(life);
    if (atPoint && cell.stopping) return true;
  } else if (atPoint && life.signal === 'SIGKILL') return true;
  cell.status = end.reason === 'timeout' ? 'stuck' : 'error';
  cell.note =
    end.reason === 'terminal'
      ? `the crash point ${point} was never reached: the run finished without it`
      : end.reason === 'timeout'
        ? `worker A did not reach ${point} within ${Math.round(cell.deps.boundMs / 1000)} s (status ${lastStatus(cell)}); worker A said: ${tail(life.logTail, 2)}`
        : `worker A ended (${life.signal ?? `exit code ${life.exitCode}`}) without reaching ${point}: ${tail(life.logTail, 3)}`;
  return false;
}

/** Phase 3, while no worker is alive: what is durable now, and the approval nobody is there to hear. */
async function whileNobodyIsAlive(cell: Cell): Promise<void> {
  cell.durableAtCrash = await timed(
    cell.harness,
    cell.deps.adapter.durableRecord(cell.handle!).catch(() => null),
  );
  if (cell.scenario.crashPoint === 'awaiting-approval' && cell.approvals.length === 0) await approve(cell, null);
}

/**
 * Phase 4: worker B resumes, supervised (supervise): an exit that means "not now" (the dead
 * worker's lease has not expired) gets B restarted after the pause the lease asks for, until the
 * bound; nothing else restarts it, and no death is reported for it (the runtime meets its own lease).
 */
async function resumePhase(cell: Cell): Promise<void> {
  const { adapter, boundMs, worldUrl } = cell.deps;
  const run = await supervise({
    adapter,
    handle: cell.handle!,
    spec: (name) => resumerSpec(cell, name),
    names: ['B'],
    policy: POLICIES.crashCell,
    boundMs,
    worldUrl,
    pollMs: cell.deps.pollMs ?? 200,
    cost: cell.harness,
    onView: (view, err) => noteView(cell, view, err),
    onWorker: (w) => track(cell, w),
    gate: () => quiet(cell),
    approve: () => (cell.approvals.length === 0 ? approve(cell, 'B') : Promise.resolve()),
  });
  const b = run.workers.at(-1)!;
  const end = phaseEnd(run.end);
  if (end.reason !== 'exit') {
    finish(cell, end, 'worker B');
    await stopWorker(cell, b);
    return;
  }
  const settled = await afterExit(cell, b);
  if (settled) finish(cell, settled, 'worker B');
}

/** Phase 5: the evidence, read from outside the workers once they are all gone. */
async function collect(cell: Cell, repetition: number, startedAt: number): Promise<CellObservation> {
  const { adapter, worldUrl } = cell.deps;
  const h = cell.handle;
  const [ledger, durableFinal, finalView] = h
    ? await timed(
        cell.harness,
        Promise.all([
          ledgerOf(worldUrl, h.runId).catch((err: unknown) => {
            cell.note = [cell.note, `the world's ledger could not be read: ${(err as Error).message}`]
              .filter(Boolean)
              .join('; ');
            return [] as LedgerEntry[];
          }),
          adapter.durableRecord(h).catch(() => null),
          adapter.inspect(h).catch(() => cell.lastView),
        ]),
      )
    : [[] as LedgerEntry[], null, null];
  if (
    cell.status === 'completed' &&
    finalView?.state?.approval?.approved !== false &&
    !ledger.some((e) => e.kind === 'mail' && e.outcome !== 'fault')
  ) {
    cell.note = [cell.note, 'the run says completed, but the world never received its mail'].filter(Boolean).join('; ');
  }
  const lives = cell.workers.map((w) => w.life);
  return {
    scenario: cell.scenario,
    repetition,
    runId: h?.runId ?? '(not created)',
    runtimeIds: h?.runtimeIds ?? {},
    link: h?.link ?? null,
    durability: h?.durability ?? cell.scenario.durability,
    status: cell.status,
    note: cell.note,
    startedAt,
    endedAt: Date.now(),
    crash: lives.find((l) => l.name === 'A')?.crash ?? null,
    workers: lives,
    ledger,
    durableAtCrash: cell.durableAtCrash,
    durableFinal,
    finalState: finalView?.state ?? null,
    approvals: cell.approvals,
    ...(cell.scenario.stop === 'term' ? { stopping: cell.stopping } : {}),
    harness: cell.harness,
  };
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
  const startedAt = Date.now();
  const cell: Cell = {
    scenario,
    deps,
    handle: null,
    workers: [],
    approvals: [],
    status: 'error',
    note: null,
    durableAtCrash: null,
    lastView: null,
    lastError: null,
    stopping: null,
    harness: { polls: 0, pollMs: 0, readMs: 0 },
  };
  try {
    await quiet(cell);
    await startPhase(cell);
    await quiet(cell);
    if (scenario.crashPoint === null) {
      await baselinePhase(cell);
    } else if (await crashPhase(cell)) {
      await quiet(cell);
      await whileNobodyIsAlive(cell);
      await quiet(cell);
      await resumePhase(cell);
    }
  } catch (err) {
    cell.status = 'error';
    cell.note = `the cell could not run: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    await Promise.all(cell.workers.map((w) => w.kill()));
  }
  await quiet(cell);
  return collect(cell, repetition, startedAt);
}
