import type { ReviewRequestInput, Ports, Variant } from '@vendor-review/pipeline';
import type { CrashPointName } from '@vendor-review/instrument';
import type { RunConfig, RuntimeAdapter, RuntimeInfo, WorkerSpec } from './adapter.ts';
import type { OutboxRow } from '@vendor-review/worker-io';
import type { WorkerProcess } from '@vendor-review/testbed';
import type { ServerConnections, ServerSpec } from './servers.ts';

/**
 * A runtime module: everything the tools (compare, chaos, bench, lab) may know about one runtime,
 * exported by its own package and listed once in compare/src/runtimes.ts. Nothing else outside the
 * package imports it, names it or reads its tables: what a tool needs of a runtime's records it
 * asks here. `info` must be cheap to import (no runtime libraries), so a usage mistake is reported
 * before any runtime is loaded; `start` loads the rest.
 */
export interface RuntimeModule {
  /** Who it is, its configurations, its colour, and where it departs from the catalogue (with why). */
  readonly info: RuntimeInfo;
  /**
   * The servers it brings besides the world and PostgreSQL (the store every runtime is given): how
   * each starts, answers, restarts and stops. Absent: a library on PostgreSQL alone.
   */
  readonly servers?: readonly ServerSpec[];
  /** The libraries it runs on, read from the installed packages (`{ '@langchain/langgraph': '1.7.3' }`). */
  versions(): Record<string, string | null>;
  /** Its tables, its prebuilt workers and its adapter, given the servers. */
  start(env: RuntimeEnv): Promise<StartedRuntime>;
  /** What `pnpm bench` measures of it and how (loaded on demand); without one it is left out of the bench. */
  bench?(): Promise<RuntimeBench>;
}

export interface RuntimeEnv {
  worldUrl: string;
  databaseUrl: string;
  /** How to reach each server the module declared, by the server's id (see `connectionTo`). */
  servers: ServerConnections;
  /**
   * A pool of workers that serves many runs (chaos) names the queue each configuration's runs go
   * to; unset, a runtime with queues gives every run one of its own.
   */
  sharedQueue?: (config: RunConfig) => string;
  /** Settings a measurement sweeps (bench's recovery), by the names the runtime's `tunables` give. */
  tuning?: Readonly<Record<string, number>>;
}

export interface StartedRuntime {
  info: RuntimeInfo;
  adapter: RuntimeAdapter;
  /** What had to be built for its workers ("worker bundle from cache", "workflow bundle built in 14.2 s"). */
  built: string[];
  workers: WorkerModel;
  records: RuntimeRecords;
}

/**
 * How a runtime's workers live. `per-run`: the harness starts `adapter.workerSpec(run)` for each
 * run and a new one when it dies (LangGraph, a process that owns one thread). `queue`: a fixed set
 * of processes serves every run of a configuration's queue (Temporal's task queue); a dead one is
 * replaced, and any live one may pick a run up.
 */
export type WorkerModel =
  | { kind: 'per-run' }
  | { kind: 'queue'; spec(config: RunConfig, worker: { name: string; crashPlan: string | null }): WorkerSpec };

/** One row of a run's outbox: the hardened mail's guard, sent by whoever drains it. */
export type OutboxFact = Pick<OutboxRow, 'status' | 'attempts' | 'lastError'>;

/** Who wrote one durable record, where the runtime keeps that apart from the record itself. */
export interface ProvenanceFact {
  checkpointId: string;
  writer: string | null;
  token: number | null;
  /** Epoch ms of the transaction that wrote it. */
  writtenAt: number;
}

/** How a run's ownership was left, for a runtime that hands a run to one owner (a lease). */
export interface CompletionFact {
  status: string;
  /** The worker that last wrote the run's status. */
  by: string | null;
  /** The run's lease as it was left: its last owner (`name#pid`), fencing token, and when it was claimed. */
  leaseOwner: string | null;
  leaseToken: number | null;
  leaseClaimedAt: number | null;
  /** When the final status was written (epoch ms). */
  finishedAt: number | null;
}

/**
 * What a checker may read of a runtime's own tables, asked for many runs at once. Parts a runtime
 * does not keep are left out (a runtime with no lease has no completion facts).
 */
export interface RuntimeRecords {
  /** Each run's outbox rows, oldest first; runs with none are absent. */
  outbox(runIds: readonly string[]): Promise<Map<string, OutboxFact[]>>;
  /** Who wrote each durable record, when the durable marks do not say it themselves. */
  provenance?(runIds: readonly string[]): Promise<Map<string, ProvenanceFact[]>>;
  /** How each run's status and lease were left. */
  completion?(runIds: readonly string[]): Promise<Map<string, CompletionFact>>;
}

/** The variant's baseline configuration (its first, at the default granularity). */
export function baselineConfig(info: RuntimeInfo, variant: Variant): RunConfig {
  const config = info.configurations.find((c) => c.variant === variant && !c.granularity);
  if (!config) throw new Error(`${info.title} has no ${variant} configuration`);
  return config;
}

// ─── The bench: what `pnpm bench` (compare/src/bench) measures of a runtime ───────────────
// The bench owns the clock, the units, the statistics and the tables; a runtime's bench only runs the
// runtime's part of each section. A section a bench leaves out is not measured for it.

/** The bench's presets: a bench sizes its own sweeps by them. */
export type BenchPreset = 'smoke' | 'quick' | 'full';

/** What every part of a bench is given: the bench's servers, its world's ports and its log. */
export interface BenchEnv {
  worldUrl: string;
  databaseUrl: string;
  servers: ServerConnections;
  ports: Ports;
  preset: BenchPreset;
  log(line: string): void;
}

export interface RuntimeBench {
  /**
   * The unit its overheads are stated in: `'commit'`, the PostgreSQL commit the bench measures for
   * every runtime, or one of its own, which `inProcess().measureUnit` measures.
   */
  unit: 'commit' | BenchUnit;
  /** Per step, storage and its own unit, in this process; opened once, closed before the worker processes run. */
  inProcess?(env: BenchEnv): Promise<InProcessBench>;
  /** Reviews at once through its worker processes. */
  throughput?: ThroughputBench;
  /** The settings that trade recovery time against a live worker losing its run. */
  recovery?: RecoveryBench;
}

/** A runtime's own unit of cost, in words; `measureUnit` gives its samples. */
export interface BenchUnit {
  id: string;
  /** A row of the units table: "one Temporal no-op activity (with its workflow task)". */
  label: string;
  /** In a sentence: "one no-op activity"; as a column: "activities". */
  one: string;
  plural: string;
}

/** One run timed in this process, from its creation to its end. */
export interface TimedRun {
  ms: number;
  ok: boolean;
  /** What names it in the runtime (thread, workflow id): storage reads its records by it. */
  id: string;
  note?: string;
}

/** Times `body` (which says whether the run completed, and its id); a throw is a failed run. */
export async function timedRun(body: () => Promise<{ ok: boolean; id: string }>, id = ''): Promise<TimedRun> {
  const t = performance.now();
  try {
    const r = await body();
    return { ms: performance.now() - t, ...r };
  } catch (err) {
    return { ms: performance.now() - t, ok: false, id, note: err instanceof Error ? err.message : String(err) };
  }
}

/** The real review in each variant, timed whole: the per-step configurations of a runtime with no bare or replayed ones. */
export function variantReviews(
  title: string,
  run: (request: ReviewRequestInput, variant: Variant) => Promise<{ ok: boolean; id: string }>,
): (request: ReviewRequestInput) => PerStepConfig[] {
  return (request) =>
    (['naive', 'hardened'] as const).map((variant) => ({
      mode: variant,
      label: `${title} ${variant} review`,
      kind: 'review',
      bare: null,
      replay: null,
      run: () => timedRun(() => run(request, variant)),
    }));
}

export interface InProcessBench {
  /** Its in-process worker's start, kept out of the step figures; null when it has none. */
  workerStartMs: number | null;
  /** Samples (µs) of its own unit, and parts of it worth a row ("of which a workflow task waits"). */
  measureUnit?(): Promise<{ us: number[]; parts: { label: string; us: number[] }[] }>;
  /** Its configurations of one review, each timed run by run against the plain runner's floor. */
  perStep?(o: { request: ReviewRequestInput; shape: BareShape }): Promise<PerStepConfig[]>;
  storage?: StorageBench;
  close(): Promise<void>;
}

/** The review's shape for a bare run: its requirements and the pages fetched in parallel for each. */
export interface BareShape {
  requirements: number;
  pages: number;
}

/**
 * One configuration of the per-step section. `bare`: the runtime's own graph / workflow of the
 * review's shape, doing nothing; `replay`: ours with its steps handing back a recorded run's
 * results (the runtime carrying our state); `ours`: our code around the runtime on those replayed
 * steps; `review`: the real thing.
 */
export interface PerStepConfig {
  /** Unique within the runtime; the row's id is `<runtime>:<mode>`. */
  mode: string;
  label: string;
  kind: 'bare' | 'replay' | 'ours' | 'review';
  /** Modes of the bare and the replayed configuration it is compared with. */
  bare: string | null;
  replay: string | null;
  /** Its overhead against `replay` is what our code around the runtime adds (the "our code" column). */
  ourCode?: boolean;
  /** Its name in the findings' sentence, when it has a place there ("PostgresSaver `exit`"). */
  finding?: string;
  run(): Promise<TimedRun>;
}

export interface StorageBench {
  modes: readonly string[];
  /** What its figures are, for the table's note ("the history's size as the server counts it"). */
  how: string;
  /** Limits a growing run meets, projected to; none: nothing to meet. */
  limits?: StorageLimits;
  /** One finished run of `mode` on `request`, and what it left stored. */
  measure(mode: string, request: ReviewRequestInput): Promise<StoredRun>;
}

export interface StorageLimits {
  historyBytes: number;
  historyEvents: number;
  payloadBytes: number;
}

export interface StoredRun {
  ok: boolean;
  bytes: number;
  rows?: number;
  tables?: { table: string; rows: number; bytes: number }[];
  events?: number;
  largestPayloadBytes?: number;
  activityInputBytes?: number;
}

export interface ThroughputBench {
  /** A line each worker prints once it can take work: its start ends there. */
  ready: RegExp;
  /** One cell on a fresh database: what must exist before the window opens, and its workers. */
  prepare(o: {
    env: BenchEnv;
    started: StartedRuntime;
    databaseUrl: string;
    request: ReviewRequestInput;
    variant: Variant;
    concurrency: number;
    processes: number;
  }): Promise<ThroughputCellRun>;
}

export interface ThroughputCellRun {
  /** One spec per worker process. */
  workers: WorkerSpec[];
  /** With the workers spawned (`ready` once each has said so): the reviews driven to their end. */
  drive(o: { workers: readonly WorkerProcess[]; ready: Promise<unknown> }): Promise<void>;
  /** Read once the workers are gone and the database's statistics have settled. */
  outcome(): Promise<ThroughputOutcome>;
}

export interface ThroughputOutcome {
  /** The runs' ids in the world's ledger: the window opens at the first call any of them makes. */
  runIds: string[];
  completed: number;
  /** When the last review was recorded complete (epoch ms). */
  lastCompletedAt: number | null;
  historyEvents: number | null;
  failures: string[];
}

export interface RecoveryBench {
  knobs: readonly RecoveryKnob[];
  /**
   * Uncrashed hardened reviews, `runs` of them in one live worker started with `started` (tuned to
   * the knob's value), on a loaded machine: how many the live worker lost.
   */
  loaded?(o: {
    env: BenchEnv;
    started: StartedRuntime;
    knob: string;
    value: number;
    runs: number;
    request: ReviewRequestInput;
  }): Promise<{ lost: number; timedOutAttempts: number | null; failed: string[] }>;
}

/** A setting swept: a `RuntimeEnv.tuning` name, in ms. */
export interface RecoveryKnob {
  name: string;
  /** "lease TTL"; in a sentence "a lease TTL". */
  label: string;
  phrase: string;
  /** Where worker A is killed. */
  crashPoint: CrashPointName;
  /** Settings killed at, and settings tried under load, per preset. */
  values: Readonly<Record<BenchPreset, readonly number[]>>;
  loaded: Readonly<Record<BenchPreset, readonly number[]>>;
}
