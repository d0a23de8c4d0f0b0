import type { CrashPointName, ReviewRequestInput } from '@vendor-review/domain';
import { reviewDigest } from '@vendor-review/domain';
import type { LedgerEntry } from '@vendor-review/domain/world';
import {
  approveRun,
  getRun,
  readHistory,
  startRun,
  type HistoryEventSummary,
  type RunView,
  type Variant,
} from '../../src/index.ts';
import { taskQueueFor, type TestEnvironment } from './environment.ts';
import { startWorkerProcess, type CrashReport, type WorkerExit, type WorkerProcess } from './worker-process.ts';

export interface ScenarioResult {
  label: string;
  runId: string;
  workflowId: string;
  runtimeRunId: string;
  final: RunView;
  digest: string | null;
  crash: CrashReport | null;
  exitA: WorkerExit | null;
  /** Worker B's own start time (process start to polling), with the prebuilt bundle. */
  startMsB: number | null;
  /** Crash (the CRASHPOINT line's timestamp) to the first thing worker B did: a world request or a history event. */
  recoveryMs: number | null;
  /** Worker B polling to its first progress: the runtime's part of the takeover once a replacement exists. */
  afterReadyMs: number | null;
  approvedWhileNoWorker: boolean;
  ledger: LedgerEntry[];
  /** opKeys that executed more often than in an uncrashed run (injected faults not counted); see withExtras. */
  repeated: Map<string, LedgerEntry[]>;
  extraModelCalls: number;
  mails: number;
  notes: number;
  history: HistoryEventSummary[];
  output: { A: string; B: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One cell of the matrix, the way the harness runs it: worker A (a real process) with the crash
 * plan, a fresh business run, A's death observed, worker B (a new process, no plan) takes over,
 * the human approves when asked, the run finishes. Evidence comes from the world's ledger and the
 * workflow history, never from what the workers print about themselves.
 */
export async function runScenario(
  env: TestEnvironment,
  bundlePath: string,
  o: {
    label: string;
    variant: Variant;
    request: ReviewRequestInput;
    crashPoint: CrashPointName | null;
    timeoutMs?: number;
  },
): Promise<ScenarioResult> {
  const taskQueue = taskQueueFor(o.label);
  const common = {
    address: env.temporal.address,
    taskQueue,
    worldUrl: env.world.url,
    databaseUrl: env.db.url,
    bundlePath,
  };
  const A = startWorkerProcess('A', { ...common, crashPlan: o.crashPoint ?? '' });
  let B: WorkerProcess | undefined;
  try {
    await A.ready;
    const run = await startRun({ client: env.client, taskQueue, request: o.request, variant: o.variant });
    let approved = false;
    let approvedWhileNoWorker = false;
    let exitA: WorkerExit | null = null;
    const deadline = Date.now() + (o.timeoutMs ?? 90_000);
    let view: RunView;
    for (;;) {
      if (!A.alive() && !B) {
        exitA = await A.exited;
        if (o.crashPoint === 'awaiting-approval' && !approved) {
          // The lesson of this crash point: the decision lands while no worker is alive at all.
          await approveRun({ client: env.client, runId: run.runId, approved: true, by: 'reviewer@example.com' });
          approved = approvedWhileNoWorker = true;
        }
        B = startWorkerProcess('B', common);
      }
      view = await getRun({ client: env.client, runId: run.runId, queryState: false });
      if (view.status === 'completed' || view.status === 'failed') break;
      // At the awaiting-approval crash point the decision is sent above, once A is dead.
      if (view.status === 'awaiting-approval' && !approved && o.crashPoint !== 'awaiting-approval') {
        await approveRun({ client: env.client, runId: run.runId, approved: true, by: 'reviewer@example.com' });
        approved = true;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${o.label}: run ${run.runId} still ${view.status} after ${o.timeoutMs ?? 90_000}ms\n--- A ---\n${A.output()}\n--- B ---\n${B?.output() ?? '(not started)'}`,
        );
      }
      await sleep(100);
    }
    const final = await getRun({ client: env.client, runId: run.runId });
    const startB = B ? await B.ready.catch(() => null) : null;
    const [history] = await Promise.all([readHistory({ client: env.client, runId: run.runId })]);
    const ledger = env.world.ledger({ runId: run.runId });
    const crash = exitA?.crash ?? null;
    return {
      label: o.label,
      ...run,
      final,
      digest: final.state ? reviewDigest(final.state) : null,
      crash,
      exitA,
      startMsB: startB?.startMs ?? null,
      recoveryMs: crash ? recoveryAfter(crash.at, ledger, history) : null,
      afterReadyMs:
        crash && startB ? Math.max(0, crash.at + (recoveryAfter(crash.at, ledger, history) ?? NaN) - startB.at) : null,
      approvedWhileNoWorker,
      ledger,
      repeated: new Map(),
      extraModelCalls: 0,
      mails: env.world.outbox(run.runId).length,
      notes: env.world.notes(run.runId).length,
      history,
      output: { A: A.output(), B: B?.output() ?? '' },
    };
  } finally {
    await Promise.all([A.stop(), B?.stop()]);
  }
}

function byOperation(ledger: LedgerEntry[]): Map<string, LedgerEntry[]> {
  const byOp = new Map<string, LedgerEntry[]>();
  for (const e of ledger) {
    if (e.outcome === 'fault') continue;
    byOp.set(e.opKey, [...(byOp.get(e.opKey) ?? []), e]);
  }
  return byOp;
}

/**
 * What repeated because of the crash: an operation that ran more often than in the uncrashed
 * baseline (the pipeline legitimately fetches a page twice when two requirements point at it).
 * Operations unique to a run (the mail's subject names the run) are expected once.
 */
export function withExtras(r: ScenarioResult, baseline: ScenarioResult | null): ScenarioResult {
  const expected = baseline ? byOperation(baseline.ledger) : new Map<string, LedgerEntry[]>();
  const repeated = new Map(
    [...byOperation(r.ledger)].filter(([op, es]) => es.length > (expected.get(op)?.length ?? 1)),
  );
  const extraModelCalls = [...repeated]
    .filter(([, es]) => es[0]!.kind === 'model')
    .reduce((n, [op, es]) => n + es.length - (expected.get(op)?.length ?? 1), 0);
  return { ...r, repeated, extraModelCalls };
}

function recoveryAfter(crashAt: number, ledger: LedgerEntry[], history: HistoryEventSummary[]): number | null {
  const times = [
    ...ledger.filter((e) => e.worker === 'B').map((e) => e.at),
    ...history.filter((e) => e.workerIdentity?.startsWith('B/')).map((e) => Date.parse(e.time)),
  ].filter((t) => t >= crashAt);
  return times.length ? Math.min(...times) - crashAt : null;
}
