import { initialState, type ReviewState } from '@vendor-review/pipeline';
import { BEFORE_THE_GATE } from './catalogue/crash-rules.ts';
import { runConfigurations } from './configurations.ts';
import { type DurableMark, type DurableRecord, type RuntimeInfo } from './adapter.ts';
import { workerLife, type WorkerLife } from '@vendor-review/testbed';
import type { LedgerEntry } from '@vendor-review/world';
import type { CellObservation } from './observation.ts';
import { baselineIdFor, scenarioId, type Scenario } from './scenarios.ts';

/** The fake runtimes' names: a test builds rows for one or the other. */
export type FakeRuntime = 'checkpointer' | 'journal';

/**
 * Two made-up runtimes, one per mechanism a durable runtime keeps its progress by, for constructed
 * results. `checkpointer` saves a checkpoint at node boundaries, with a durability setting for when
 * it writes (in the background, before the next step, or only when the run stops), and departs from
 * the crash rules where a setting keeps too little. `journal` replays a history of the steps it
 * recorded, has no durability setting, and departs from the hazard catalogue where its defaults
 * differ (a default retry policy that never gives up, the server's own fencing of a stale task).
 */
export const FAKE_RUNTIMES: Record<FakeRuntime, RuntimeInfo> = {
  checkpointer: {
    name: 'checkpointer',
    label: 'CP',
    title: 'Checkpointer',
    colour: '#2563eb',
    configurations: runConfigurations({ naive: ['async', 'sync', 'exit'], coarser: 'sync' }),
    // Where a durability setting keeps too little for the rule (a test may build rows that depend on them).
    crashDeviations: [
      {
        durability: 'exit',
        points: BEFORE_THE_GATE,
        expected: { kind: 'lost' },
        why: 'Durability "exit" writes a checkpoint only when the run stops.',
      },
      {
        durability: 'async',
        points: BEFORE_THE_GATE,
        expected: { kind: 'varies' },
        why: 'Durability "async" writes checkpoints in the background while the next steps run.',
      },
    ],
  },
  journal: {
    name: 'journal',
    label: 'JN',
    title: 'Journal',
    colour: '#7c3aed',
    crashDeviations: [
      {
        points: ['mid-commit'],
        expected: { kind: 'not-reached' },
        why: 'The journal is written by its server: no code of ours runs inside the commit.',
      },
    ],
    // Where its defaults end a hazard elsewhere than the catalogue (a test may build rows that depend on them).
    hazardDeviations: [
      {
        hazard: 'retry-permanent',
        variant: 'naive',
        expected: 'retried-permanent',
        why: 'The journal’s default retry policy retries every failure, forever.',
      },
      { hazard: 'two-writers', variant: 'naive', expected: 'one-writer', why: 'one task, one poller' },
      { hazard: 'zombie', variant: 'naive', expected: 'fenced-by-runtime', why: 'stale task token' },
      { hazard: 'zombie', variant: 'hardened', expected: 'fenced-by-runtime', why: 'stale task token' },
      {
        hazard: 'restart-server',
        variant: 'naive',
        expected: 'rode-it-out',
        alsoSeen: ['duplicated-effects'],
        why: 'Whether the note’s step reports before the outage is a race.',
      },
    ],
    configurations: runConfigurations(),
  },
};

/**
 * Constructed evidence: a ledger shaped like the real pipeline's (sitemap, three pages and one
 * model call per requirement, a tracker note per requirement, a draft call, one mail), so the pure
 * modules can be tested without any runtime.
 */
export const T0 = 1_700_000_000_000;

type Op = Pick<LedgerEntry, 'kind' | 'step' | 'opKey'> & Partial<LedgerEntry>;

export const PIPELINE: Op[] = [
  { kind: 'web', step: 'DISCOVER', opKey: 'GET /vendors/acme/sitemap.json', path: '/vendors/acme/sitemap.json' },
  { kind: 'web', step: 'FETCH', opKey: 'GET /vendors/acme/security', path: '/vendors/acme/security' },
  { kind: 'web', step: 'FETCH', opKey: 'GET /vendors/acme/trust', path: '/vendors/acme/trust' },
  { kind: 'web', step: 'FETCH', opKey: 'GET /vendors/acme/legal', path: '/vendors/acme/legal' },
  {
    kind: 'model',
    step: 'EXTRACT',
    opKey: 'model:EXTRACT:aaa',
    promptTokens: 900,
    completionTokens: 120,
    costUsd: 0.0021,
  },
  { kind: 'tracker', step: 'SAVE_PROGRESS', opKey: 'note:soc2', method: 'POST', path: '/tracker/notes' },
  { kind: 'web', step: 'FETCH', opKey: 'GET /vendors/acme/pricing', path: '/vendors/acme/pricing' },
  { kind: 'web', step: 'FETCH', opKey: 'GET /vendors/acme/security', path: '/vendors/acme/security' },
  {
    kind: 'model',
    step: 'EXTRACT',
    opKey: 'model:EXTRACT:bbb',
    promptTokens: 800,
    completionTokens: 100,
    costUsd: 0.0018,
  },
  { kind: 'tracker', step: 'SAVE_PROGRESS', opKey: 'note:sso', method: 'POST', path: '/tracker/notes' },
  { kind: 'model', step: 'DRAFT', opKey: 'model:DRAFT:ccc', promptTokens: 500, completionTokens: 300, costUsd: 0.0025 },
  { kind: 'mail', step: 'DELIVER', opKey: 'mail:ddd', method: 'POST', path: '/mail/send' },
];

export function entries(ops: (Op & { worker: string })[], runId = 'rev-acme-1', start = T0): LedgerEntry[] {
  return ops.map((op, i) => ({
    subject: op.opKey,
    seq: i + 1,
    at: start + i * 100,
    runId,
    attempt: 1,
    idempotencyKey: null,
    method: 'GET',
    path: '',
    status: 200,
    outcome: 'ok',
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    durationMs: 40,
    ...op,
  }));
}

export function finalState(runId: string, extra: Partial<ReviewState> = {}): ReviewState {
  const s = initialState(runId, {
    vendor: { name: 'Acme', baseUrl: 'http://127.0.0.1:1/vendors/acme' },
    requirements: [
      { id: 'soc2', question: 'Is SOC 2 Type II current?' },
      { id: 'sso', question: 'Is SAML SSO offered?' },
    ],
    requester: { name: 'Pat', email: 'pat@example.com' },
    options: { maxPagesPerRequirement: 3 },
  });
  return {
    ...s,
    verdicts: {
      soc2: {
        requirementId: 'soc2',
        status: 'confirmed',
        evidence: [{ url: 'u1', quote: 'SOC 2 Type II' }],
        confidence: 0.9,
      },
      sso: { requirementId: 'sso', status: 'missing', evidence: [], confidence: 0.2 },
    },
    progressNotes: { soc2: 'n1', sso: 'n2' },
    draft: { text: 'Acme: SOC 2 confirmed; SSO not stated.', model: 'sim-1' },
    ...extra,
  };
}

export function worker(name: string, startedAt: number, exitedAt: number, killed: boolean): WorkerLife {
  return workerLife({
    name,
    pid: name === 'A' ? 1001 : 1002,
    startedAt,
    exitedAt,
    exitCode: killed ? null : 0,
    signal: killed ? 'SIGKILL' : null,
    peakRssKb: 120_000,
  });
}

export function scenario(
  runtime: FakeRuntime,
  variant: Scenario['variant'],
  crashPoint: Scenario['crashPoint'],
  durability: Scenario['durability'] = runtime === 'checkpointer' && variant === 'naive' ? 'async' : null,
): Scenario {
  return {
    id: scenarioId(runtime, variant, durability, crashPoint),
    runtime,
    variant,
    durability,
    crashPoint,
    baselineId: baselineIdFor(FAKE_RUNTIMES[runtime], variant),
    faults: [],
    deviations: FAKE_RUNTIMES[runtime].crashDeviations ?? [],
  };
}

export function baselineObservation(
  runtime: FakeRuntime = 'checkpointer',
  variant: Scenario['variant'] = 'naive',
): CellObservation {
  const runId = 'rev-acme-base';
  const ledger = entries(
    PIPELINE.map((op) => ({ ...op, worker: 'A' })),
    runId,
  );
  return {
    scenario: scenario(runtime, variant, null),
    repetition: 0,
    runId,
    runtimeIds: { threadId: 'thread-base' },
    link: null,
    durability: runtime === 'checkpointer' ? 'async' : null,
    status: 'completed',
    note: null,
    startedAt: T0 - 500,
    endedAt: T0 + 2000,
    crash: null,
    workers: [worker('A', T0 - 500, T0 + 1900, false)],
    ledger,
    durableAtCrash: null,
    durableFinal: runtime === 'checkpointer' ? checkpointerRecord(12) : journalRecord(30, T0),
    finalState: finalState(runId),
    approvals: [{ at: T0 + 1050, aliveWorker: 'A', decision: { approved: true, by: 'qa' } }],
  };
}

const NODES = ['VALIDATE', 'DISCOVER', 'SELECT_REQUIREMENT', 'SELECT_PAGE', 'FETCH', 'EXTRACT'];

/**
 * A checkpointer's record drawn by hand: each checkpoint `[id, parent, writer?]`, in the order given,
 * its id its label. Enough for the judges that read only the chain's shape and who wrote what.
 */
export function checkpointChain(marks: [id: string, parent: string | null, writer?: string][]): DurableRecord {
  return {
    runtime: 'checkpointer',
    kind: 'checkpoints',
    marks: marks.map(([id, parentId, writer], order): DurableMark => ({
      id,
      kind: 'checkpoint',
      at: null,
      step: null,
      short: id,
      long: id,
      parentId,
      ...(writer === undefined ? {} : { writer }),
      order,
    })),
  };
}

/** A checkpoint chain of `n` checkpoints (the first the run's input checkpoint), optionally forked at `forkAt`. */
export function checkpointerRecord(n: number, forkAt?: number): DurableRecord {
  const mark = (id: string, parentId: string | null, step: number, node: string | null): DurableMark => ({
    id,
    kind: 'checkpoint',
    at: null,
    step: node,
    short: `cp ${step} ${node ?? 'input'}`,
    long: `checkpoint at step ${step}${node ? ` (after ${node})` : ' (input)'}`,
    parentId,
    writer: null,
    order: step,
  });
  const marks = Array.from({ length: n }, (_, i) =>
    mark(`cp${i}`, i ? `cp${i - 1}` : null, i - 1, i ? NODES[(i - 1) % NODES.length]! : null),
  );
  if (forkAt !== undefined) marks.push(mark(`fork${forkAt}`, `cp${forkAt}`, forkAt, 'EXTRACT'));
  return { runtime: 'checkpointer', kind: 'checkpoints', marks };
}

/** A journal's history of `n` events: started, then scheduled / started (by worker A) / completed FETCH steps. */
export function journalRecord(n: number, start: number): DurableRecord {
  const marks = Array.from({ length: n }, (_, i): DurableMark => {
    const phase =
      i === 0
        ? 'WorkflowExecutionStarted'
        : ['ActivityTaskCompleted', 'ActivityTaskScheduled', 'ActivityTaskStarted'][i % 3]!;
    const activity = i === 0 ? null : 'FETCH';
    return {
      id: String(i + 1),
      kind: 'event',
      at: start + i * 60,
      step: activity,
      short: `#${i + 1} ${phase === 'ActivityTaskCompleted' ? 'FETCH' : phase}`,
      long: `history event ${i + 1}: ${phase}`,
      writer: phase === 'ActivityTaskStarted' ? 'A' : null,
      order: i + 1,
      bookkeeping: phase === 'ActivityTaskScheduled' || phase === 'ActivityTaskStarted',
    };
  });
  return { runtime: 'journal', kind: 'history', marks };
}

/**
 * A crashed cell: worker A ran the pipeline up to and including `crashAfter` ops, then died; worker
 * B repeated `repeatFrom..` (the unfinished step) and finished.
 */
export function crashedObservation(opts: {
  runtime?: FakeRuntime;
  variant?: Scenario['variant'];
  crashPoint: NonNullable<Scenario['crashPoint']>;
  crashAfter: number;
  resumeFrom: number;
  dedupe?: boolean;
  final?: ReviewState;
}): CellObservation {
  const runtime = opts.runtime ?? 'checkpointer';
  const variant = opts.variant ?? 'naive';
  const runId = 'rev-acme-crash';
  const a = PIPELINE.slice(0, opts.crashAfter).map((op) => ({ ...op, worker: 'A' }));
  const b = PIPELINE.slice(opts.resumeFrom).map((op, i) => ({
    ...op,
    worker: 'B',
    outcome:
      opts.dedupe && i === 0 && (op.kind === 'mail' || op.kind === 'tracker')
        ? ('deduplicated' as const)
        : ('ok' as const),
  }));
  const ledger = entries([...a, ...b], runId);
  const crashAt = T0 + (opts.crashAfter - 1) * 100 + 50;
  return {
    scenario: scenario(runtime, variant, opts.crashPoint),
    repetition: 0,
    runId,
    runtimeIds:
      runtime === 'checkpointer'
        ? { threadId: 'thread-1' }
        : { workflowId: 'review-rev-acme-crash', runtimeRunId: 'r1' },
    link: null,
    durability:
      runtime === 'checkpointer' && variant === 'naive' ? 'async' : runtime === 'checkpointer' ? 'sync' : null,
    status: 'completed',
    note: null,
    startedAt: T0 - 500,
    endedAt: T0 + 3000,
    crash: { point: opts.crashPoint, occurrence: 1, action: 'kill', pid: 1001, at: crashAt, detail: '' },
    workers: [worker('A', T0 - 500, crashAt, true), worker('B', crashAt + 20, T0 + 2900, false)],
    ledger,
    durableAtCrash: runtime === 'checkpointer' ? checkpointerRecord(8) : journalRecord(12, T0 - 400),
    durableFinal: runtime === 'checkpointer' ? checkpointerRecord(20) : journalRecord(40, T0 - 400),
    finalState: opts.final ?? finalState(runId),
    approvals: [],
  };
}

/** The observation with the approver asked once per worker named (keyed repeats as `deduplicated`). */
export function withAsks(
  obs: CellObservation,
  asks: { worker: string; outcome?: LedgerEntry['outcome'] }[],
): CellObservation {
  const extra = entries(
    asks.map((a) => ({
      kind: 'approver' as const,
      step: 'AWAIT_APPROVAL',
      opKey: `ask:${obs.runId}`,
      method: 'POST',
      path: '/approver/notify',
      worker: a.worker,
      outcome: a.outcome ?? 'ok',
    })),
    obs.runId,
    (obs.ledger.at(-1)?.at ?? T0) + 100,
  ).map((e, i) => ({ ...e, seq: obs.ledger.length + i + 1 }));
  return { ...obs, ledger: [...obs.ledger, ...extra] };
}
