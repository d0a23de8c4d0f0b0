import type { ReviewRequestInput, ReviewState } from '@vendor-review/domain';
import type { DurableRecord } from '../durable.ts';
import type { RuntimeIds } from '../observation.ts';
import type { Durability, RuntimeName, Scenario } from '../scenarios.ts';
import type { WorkerSpec } from '../worker-process.ts';

/**
 * What the cell runner needs from a runtime, and nothing more: the cell's logic (crash, observe,
 * resume, approve, judge) is written once against this. Adding a runtime means one adapter.
 */
export interface RunHandle {
  runId: string;
  variant: Scenario['variant'];
  runtimeIds: RuntimeIds;
  /** Where the run can be inspected by a person (Temporal UI), when the server outlives the harness. */
  link: string | null;
  /** LangGraph: the durability mode the run really uses. */
  durability: Durability | null;
  /** Temporal: the task queue this cell's workers poll, so concurrent cells never steal each other's work. */
  taskQueue?: string;
  /** The database this run's workers use, when it is not the shared one (Temporal hardened: a schema of its own). */
  databaseUrl?: string;
}

export type RunStatus = 'pending' | 'running' | 'awaiting-approval' | 'completed' | 'failed' | 'not-found';

export interface RunView {
  status: RunStatus;
  state: ReviewState | null;
  /** Plain words from the runtime when the run is gone. */
  reason?: string;
}

export interface RuntimeAdapter {
  readonly runtime: RuntimeName;
  /** LangGraph workers exit once their run is terminal; Temporal workers run until told to stop. */
  readonly workerExitsWhenDone: boolean;
  /**
   * An exit code meaning "not now, try again" (LangGraph hardened: the dead worker's lease has not
   * expired yet). A supervisor would restart the worker; so does the cell.
   */
  isRetryableExit(code: number | null): boolean;
  createRun(scenario: Scenario, request: ReviewRequestInput): Promise<RunHandle>;
  /** How to start a worker process for this run; `crashPlan` null means "no plan". */
  workerSpec(handle: RunHandle, crashPlan: string | null): WorkerSpec;
  /** Polled several times a second while a cell runs: must be cheap; `state` may be left out. */
  status(handle: RunHandle): Promise<RunView>;
  /** The full view with the final state, read once at the end of a cell. */
  inspect(handle: RunHandle): Promise<RunView>;
  approve(handle: RunHandle): Promise<void>;
  durableRecord(handle: RunHandle): Promise<DurableRecord>;
  close(): Promise<void>;
}

export const APPROVER = 'compare-harness';
