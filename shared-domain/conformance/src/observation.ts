import type { Decision, Durability, ReviewState } from '@vendor-review/pipeline';
import type { CrashLine } from '@vendor-review/instrument';
import type { DurableRecord, RuntimeIds } from './adapter.ts';
import type { WorkerLife } from '@vendor-review/testbed';
import type { LedgerEntry } from '@vendor-review/world';
import type { Scenario } from './scenarios.ts';

/**
 * Everything one cell saw, raw: what the world recorded, what the runtime kept durable, how the
 * worker processes lived and died. Judging it (what repeated, what it cost) is evidence.ts's job,
 * so a cell can be re-judged against a baseline that finished later.
 */
export type CellStatus = 'completed' | 'stuck' | 'failed' | 'lost' | 'error';

export interface CellObservation {
  scenario: Scenario;
  repetition: number;
  runId: string;
  runtimeIds: RuntimeIds;
  /** Where a person can open the run (Temporal UI), when the server outlives the harness. */
  link: string | null;
  /** Durability the run really used (LangGraph), or null. */
  durability: Durability | null;
  status: CellStatus;
  /** Plain words on why the status is not "completed", or what was odd. */
  note: string | null;
  startedAt: number;
  endedAt: number;
  crash: CrashLine | null;
  workers: WorkerLife[];
  ledger: LedgerEntry[];
  /** The durable record read while no worker was alive, right after the crash. */
  durableAtCrash: DurableRecord | null;
  durableFinal: DurableRecord | null;
  finalState: ReviewState | null;
  approvals: { at: number; aliveWorker: string | null; decision: Decision }[];
  /** A cell whose worker A was asked to stop (scenario `stop: term`): how it left. Absent for a kill. */
  stopping?: StopObservation | null;
  /** What the harness spent polling and reading this cell (absent for a cell that never ran). */
  harness?: HarnessCost;
}

/**
 * Worker A asked to stop at its crash point: SIGTERM at `termAt` (its own CRASHPOINT line), then
 * SIGKILL at `termAt + graceMs` if it was still there. `left`: `exited` (it ended by itself with
 * `exitCode`), `signal` (it died of the SIGTERM itself, Node's default with no handler), `killed`
 * (the grace ended first). `leftAfterMs`: SIGTERM → the process gone.
 */
export interface StopObservation {
  graceMs: number;
  termAt: number;
  left: 'exited' | 'signal' | 'killed';
  exitCode: number | null;
  leftAfterMs: number;
}

/** Time the harness itself spent asking: what `pnpm compare --profile` separates from the runtime's. */
export interface HarnessCost {
  /** Status polls while a worker ran, and the time they took. */
  polls: number;
  pollMs: number;
  /** Reading the durable record, the final state and the ledger once the workers are gone. */
  readMs: number;
}
