import type { Durability, Granularity, ReviewRequestInput, RunView, Decision, Variant } from '@vendor-review/pipeline';
import type { ApproverDeviation, CrashDeviation } from './catalogue/crash-rules.ts';
import type { HazardDeviation, HazardId } from './catalogue/hazards.ts';
import type { WorkerSpec } from '@vendor-review/testbed';

export type { WorkerSpec };

/**
 * The adapter contract: what a harness (the crash comparison, the conformance suite, the lab)
 * needs from a durable runtime, and nothing more. Each implementation owns one adapter; the
 * harness never branches on which runtime it drives. Adding a runtime is one package, one
 * adapter and one `crashSpec` call.
 */

/** The runtime's own names for a run, next to the business run id (they are different things). */
export interface RuntimeIds {
  threadId?: string;
  workflowId?: string;
  runtimeRunId?: string;
}

/** One way a runtime can run a review. */
export interface RunConfig {
  variant: Variant;
  /** The durability asked for, or null: the runtime has none, or the variant chooses its own. */
  durability: Durability | null;
  /** Where the durable boundaries are (granularity.ts); `fine` when left out. */
  granularity?: Granularity;
}

export interface RunHandle {
  runId: string;
  config: RunConfig;
  /** The durability the run really uses (LangGraph hardened picks its own), or null. */
  durability: Durability | null;
  runtimeIds: RuntimeIds;
  /** Where a person can look at the run (the Temporal UI), when the server outlives the harness. */
  link: string | null;
}

/**
 * The runtimes keep different durable records (LangGraph: a chain of checkpoints plus pending
 * writes; Temporal: an event history). A harness needs only a few common questions answered
 * ("what was the last durable thing before the crash", "what was written after it", "who wrote
 * it", "did the chain fork"), so each adapter turns its record into marks, keeping its own
 * vocabulary in the labels.
 */
export interface DurableMark {
  /** Checkpoint id, `<checkpointId>/<taskId>/<channel>` for a pending write, or the history event id. */
  id: string;
  kind: 'checkpoint' | 'pending-write' | 'event';
  /** Epoch ms when the runtime recorded it, when the runtime says. */
  at: number | null;
  /** Pipeline step it belongs to (node or activity), when known. */
  step: string | null;
  /** Short label for the table ("cp 7 FETCH", "#23 FETCH"). */
  short: string;
  /** Sentence-ish label for the report. */
  long: string;
  /**
   * The mark this one follows from. LangGraph: the parent checkpoint (two checkpoints with one
   * parent: a forked chain), or the checkpoint a pending write hangs on. Temporal: for the close of
   * a task (an activity or workflow task completed, failed, timed out), its start event, whose
   * writer is the worker the server handed the attempt to (a close written by another worker
   * would be a stale completion accepted).
   */
  parentId?: string | null;
  /** The name of the worker process that wrote it ("A", "B"), when the record says. */
  writer?: string | null;
  /** LangGraph hardened: the lease's fencing token the writer held. */
  fencingToken?: number | null;
  /** Ordering key within the record (checkpoint step, or event id). */
  order: number;
  /** Events that only move the machinery (workflow tasks, scheduling, memo updates), not the review. */
  bookkeeping?: boolean;
}

export interface DurableRecord {
  runtime: string;
  /** A chain of checkpoints (with pending writes), an event history, or nothing durable at all. */
  kind: 'checkpoints' | 'history' | 'none';
  marks: DurableMark[];
  /**
   * How many runs the runtime's own record holds under this run's id (LangGraph: invocations with
   * an input on the thread; DBOS: workflows; Restate: invocations of the workflow's run handler):
   * 0 when it never kept the start. Absent where the adapter does not count them.
   */
  runs?: number;
  /** How many bytes the runtime stores for this run, when it can say. */
  bytes?: number | null;
  /**
   * Who the runtime's records say it handed the run's work to, as they keep it once the work is
   * done, where the in-flight records forget it: a lease row, released or not; the started event of
   * each task's closing attempt; a workflow's claim count. A takeover that claimed, finished and
   * let go between two looks at the in-flight records shows only here.
   */
  claims?: InFlightTask[];
}

/** What a harness can know about a runtime before it starts anything. */
export interface RuntimeInfo {
  /** Stable id used in scenario ids and results: "langgraph". */
  readonly name: string;
  /** Short label for the table: "LG". */
  readonly label: string;
  /** For people: "LangGraph". */
  readonly title: string;
  /**
   * Its colour in every chart, `#rrggbb`: a hue no other registered runtime has (or a grey), since
   * the charts tell variants apart by shade (hardened lighter), runtimes by hue.
   */
  readonly colour: string;
  /** The ways it can run, the baseline configuration of each variant first. */
  readonly configurations: readonly RunConfig[];
  /**
   * Where its harness makes the call that starts a run, and reaches `start-call` just before it:
   * the process and the call, for the commit window's first checkpoint. Absent: that step is not
   * measured for it (its start call is not made in a process a cell can kill).
   */
  readonly startCall?: string;
  /** The suites it takes part in; all when omitted. */
  readonly suites?: readonly Suite[];
  /** Where its crash cells depart from the catalogue's rule (crash-expectations.ts), each with its reason. */
  readonly crashDeviations?: readonly CrashDeviation[];
  /** Where its hazard rows end elsewhere than the catalogue expects (hazards.ts), each with its reason. */
  readonly hazardDeviations?: readonly HazardDeviation[];
  /** The catalogue's opt-in hazards (`optIn` in hazards.ts) it takes part in. */
  readonly optInHazards?: readonly HazardId[];
  /** Where the approver's inbox holds other than one request (crash-rules.ts APPROVER_INBOX), each with its reason. */
  readonly approverDeviations?: readonly ApproverDeviation[];
}

/**
 * crash: what a kill re-executes; production: the hazards a checkpoint alone does not handle;
 * granularity: what a crash repeats against what the boundaries cost, per node size; window: how long
 * after a step's work ends its result is safe from a kill.
 */
export type Suite = 'crash' | 'production' | 'granularity' | 'window';

export interface RuntimeAdapter<H extends RunHandle = RunHandle> extends RuntimeInfo {
  /** True when a worker leaves once its run is finished; false when it serves until told to stop. */
  readonly workerExitsWhenDone: boolean;
  /**
   * An exit code that means "not now, try again" (LangGraph hardened: the dead worker's lease has
   * not expired yet). A supervisor would restart the worker; so does the harness.
   */
  isRetryableExit(code: number | null): boolean;
  /**
   * After a "not now" exit: how long until what refused it (a dead worker's lease) lapses, ms, as
   * the runtime's own record says; null when nothing holds the run now. A supervisor waits that
   * long instead of restarting into the same refusal.
   */
  holdLapsesInMs?(handle: H): Promise<number | null>;
  /**
   * The longest this runtime's own machinery, in the settings the harness gives it, leaves a run it
   * will move untouched (a lease, a heartbeat or task timeout, a recovery pass), ms. A run untouched
   * for several times longer while its worker lives is stuck, not slow. Unset: 10 s.
   */
  readonly patienceMs?: number;
  /**
   * Registers a run (under `runId` when given). A malformed request is refused here
   * (InvalidRequestError), before anything exists. `startInWorker`: the cell kills the process that
   * makes the start call (`start-call`), so the run's workers must make it, not this process; an
   * adapter whose workers start their runs anyway has nothing to do for it.
   */
  startRun(
    request: ReviewRequestInput,
    config: RunConfig,
    opts?: { runId?: string; startInWorker?: boolean },
  ): Promise<H>;
  /** How to start a worker process for this run; `crashPlan` null means no plan. */
  workerSpec(handle: H, opts: { name: string; crashPlan: string | null }): WorkerSpec;
  /** Polled several times a second while a run is driven: must be cheap; `state` may be null. */
  status(handle: H): Promise<RunView>;
  /** The full view with the final state, read once a run has ended. */
  inspect(handle: H): Promise<RunView>;
  /** Records a human decision; works while no worker is alive. */
  approve(handle: H, decision: Decision): Promise<void>;
  durableRecord(handle: H): Promise<DurableRecord>;
  /** Ends a run that would otherwise go on forever (one retrying without a cap), as an operator would. */
  abandon?(handle: H, reason: string): Promise<void>;
  /**
   * A supervisor's word that a worker process is gone (it saw the process exit): whatever the
   * worker held for this run is given up now instead of when it times out (LangGraph hardened: its
   * lease ends, so a successor is not refused for the rest of the TTL). Only for a process known to
   * be dead: a live one would lose its run. Runtimes that notice dead workers by themselves
   * (Temporal: the heartbeat timeout) leave it out.
   */
  workerGone?(handle: H, worker: { name: string; pid: number }): Promise<void>;
  /**
   * The work the runtime has handed out for this run and not yet seen finish, as its own records
   * say. Temporal: the pending activities, each with its attempt and the worker the attempt went
   * to. LangGraph hardened: the whole run, to the worker holding its live lease (attempt: the
   * fencing token); naive, which hands out nothing, says nothing. Tells a harness who owns what
   * now: "another worker took the step over" from "the runtime handed it back to the same one".
   */
  inFlight?(handle: H): Promise<InFlightTask[]>;
  /** What the production hazards need beyond running a run (drills.ts); absent parts skip their rows. */
  readonly drills?: RuntimeDrills<H>;
  close(): Promise<void>;
}

/** A task the runtime has handed out (or is about to) and not yet seen finish. */
export interface InFlightTask {
  /** The pipeline step it runs (node or activity), or null for the whole run. */
  step: string | null;
  /** 1 for the first try (a lease: its fencing token). */
  attempt: number;
  /** The worker the current attempt was handed to ("A"), or null while it waits for one or the runtime does not say. */
  worker: string | null;
  /**
   * Whose token the attempt number is, and so what refuses the holder of an earlier one: `runtime`,
   * the runtime's own (a task token, an owner token); `lease`, our lease's fencing token. A harness
   * that sees an attempt superseded names the mechanism from this, never from the runtime's name.
   */
  fence: 'runtime' | 'lease';
}

/** Which worker process a durable record says wrote a mark, from a label such as `B/4242` or `B#4242`. */
export function workerNameOf(identity: string | null | undefined): string | null {
  if (!identity) return null;
  return identity.split(/[/#@:]/)[0] || null;
}

/**
 * What the production hazards need from a runtime beyond running a run: start a worker on last
 * release's code, age a run's record, keep a run in memory only, remove finished runs, and say
 * why today's worker would not go on with a run. Each is optional: a runtime without one has its
 * row skipped with the reason, never faked. They are drills, not features: the harness uses them
 * to put a runtime in a situation production puts it in, and judges the outcome from outside.
 */
export interface RuntimeDrills<H extends RunHandle = RunHandle> {
  /** The servers a run of this configuration keeps something in (its state, its outbox). */
  servers(config: RunConfig): readonly InfraServer[];
  /**
   * Why the run's workers would not go on with it, in the runtime's own words, from how they
   * ended and from the durable record; null when nothing refused it (yet).
   */
  explain(handle: H, endings: readonly WorkerEnding[]): Promise<Refusal | null>;
  deploy?: DeployDrill<H>;
  memory?: MemoryDrill<H>;
  retention?: RetentionDrill<H>;
  shortTimeouts?: ShortTimeoutsDrill<H>;
}

/**
 * A worker set up as a team sets it for a faster takeover of a silent worker (the runtime's
 * timeouts shortened), and reached by the runtime directly, with nothing in front of it: for
 * `zombie-past-timeouts`, where it freezes for longer than those timeouts.
 */
export interface ShortTimeoutsDrill<H extends RunHandle = RunHandle> {
  /** The settings, in words, with where they are set. */
  readonly settings: string;
  /** In those settings, the longest the runtime leaves a silent worker's task before it moves it, ms. */
  readonly movesWithinMs: number;
  worker(handle: H, opts: { name: string; crashPlan: string | null }): Promise<WorkerSpec>;
  /** The run's attempts as the runtime's own record keeps them. */
  attempts(handle: H): Promise<AttemptsRecord>;
  /** The result the runtime's record holds for the run's last step named `step`, as text; null if none. */
  recordedResult(handle: H, step: string): Promise<string | null>;
}

export interface AttemptsRecord {
  /** Attempts of the run's task the runtime has started (sent to a worker); it may forget them once the run ends. */
  started: number;
  /** The attempts of the run's task the runtime ended itself (gave up on), in order: when, and why in its words. */
  ended: { at: number; why: string }[];
  /** Where the latest attempt was sent, in the runtime's words. */
  lastSentTo: string | null;
}

/**
 * A server a run may keep something in: `postgres`, the store every runtime is given, or the id
 * of a server a runtime module declares (its `servers`).
 */
export type InfraServer = string;
export const STORE_SERVER = 'postgres';

/** A worker process as its supervisor saw it end (plain data: the domain knows no processes). */
export interface WorkerEnding {
  name: string;
  exitCode: number | null;
  signal: string | null;
  /** What it printed, both streams. */
  output: string;
}

/** Today's code would not go on with a run: where that was decided, and the runtime's words. */
export interface Refusal {
  /** "worker B, loading the latest checkpoint (exit code 6)", "history event 41: a workflow task failed on replay". */
  where: string;
  /** The error as the runtime states it, one line. */
  error: string;
  /** A short name for the kind ("checkpoint-unreadable", "nondeterminism", "nothing-to-resume", "unknown-encoding"). */
  kind: string;
}

/** A run written by last release's code and resumed by today's (a state key renamed, a step changed). */
export interface DeployDrill<H extends RunHandle = RunHandle> {
  /**
   * Last release's code for `deploy-v1-state`, where the runtime can stand for it; absent, that row
   * is skipped and says so (a runtime whose record no drill can write as an older release would).
   */
  lastRelease?: LastRelease<H>;
  /** Puts into the run's record something written in a format today's code does not read. In words. */
  foreignFormat(handle: H): Promise<string>;
}

export interface LastRelease<H extends RunHandle = RunHandle> {
  /** What stands for last release here, in words. */
  readonly previous: string;
  /** A worker of last release for this run. */
  previousWorker(handle: H, opts: { name: string; crashPlan: string | null }): Promise<WorkerSpec>;
  /**
   * Once last release's worker is dead: the record as that release left it (where the runtime cannot
   * run last release's code, the record is rewritten as it would have written it). In words.
   */
  leftByPrevious(handle: H): Promise<string>;
  /** A worker of today's code as the variant ships it: hardened with the change guarded, naive without. */
  nextWorker(handle: H, opts: { name: string }): Promise<WorkerSpec>;
}

/** A run that lives in memory only, and that memory dying mid-run. */
export interface MemoryDrill<H extends RunHandle = RunHandle> {
  /** What holds the run ("the worker process (MemorySaver)", "a dev server without --db-filename"). */
  readonly holder: string;
  open(): Promise<VolatileRuntime<H>>;
}

export interface VolatileRuntime<H extends RunHandle = RunHandle> {
  /** The runtime, set up so that its runs live in memory only. */
  adapter: RuntimeAdapter<H>;
  /** Kills what holds the memory (the worker given, or the server); says what it killed. */
  lose(worker: { kill(): Promise<unknown> }): Promise<string>;
  close(): Promise<void>;
}

/** What a runtime stores for one run, as its store counts it. */
export interface Footprint {
  /** Per kind of record: rows per table, events in the history. */
  items: Record<string, number>;
  bytes: number;
}

/** Removing finished runs after a window. */
export interface RetentionDrill<H extends RunHandle = RunHandle> {
  /** How this runtime removes them, in words (and what it cannot). */
  readonly how: string;
  footprint(handle: H): Promise<Footprint>;
  /**
   * The runtime's own retention, limited to `handles` (the harness shares its stores with other
   * runs): removes what is stored for those that finished more than `olderThanMs` ago and never
   * touches one that is live or waiting for a person. Returns the run ids it removed.
   */
  purge(o: { olderThanMs: number; handles: readonly H[] }): Promise<{ removed: string[] }>;
}

/** A drill the runtime has, but this environment cannot carry out (no CLI to start a server): the row is skipped with this reason. */
export class DrillUnavailableError extends Error {
  override readonly name = 'DrillUnavailableError';
}
