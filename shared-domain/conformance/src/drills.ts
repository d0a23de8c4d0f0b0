import type { RunConfig, RunHandle, RuntimeAdapter, WorkerSpec } from './adapter.ts';

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
