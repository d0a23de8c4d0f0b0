import type { CrashLine } from '../domain/crashpoints.ts';
import type { Decision, DurableRecord, Durability, RuntimeIds } from '../domain/runtime.ts';
import type { ReviewState } from '../domain/state.ts';
import type { WorkerLife } from '../infra/worker-process.ts';
import type { LedgerEntry } from '../world/ledger.ts';
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
}
