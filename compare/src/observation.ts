import type { CrashLine } from '@vendor-review/domain';
import type { ReviewState } from '@vendor-review/domain/pure';
import type { DurableRecord } from './durable.ts';
import type { LedgerEntry } from './ledger.ts';
import type { Durability, Scenario } from './scenarios.ts';

/**
 * Everything one cell saw, raw: what the world recorded, what the runtime kept durable, how the
 * worker processes lived and died. Judging it (what repeated, what it cost) is evidence.ts's job,
 * so a cell can be re-judged against a baseline that finished later.
 */
export type CellStatus = 'completed' | 'stuck' | 'failed' | 'lost' | 'error';

export interface WorkerLife {
  name: string;
  pid: number | null;
  startedAt: number;
  exitedAt: number | null;
  exitCode: number | null;
  signal: string | null;
  crash: CrashLine | null;
  /** When it announced it was polling for work (Temporal workers print a READY line), epoch ms. */
  readyAt: number | null;
  /** Highest resident set size seen while it lived, in kB (sampled from /proc). */
  peakRssKb: number | null;
  /** The end of its stderr, for a cell that went wrong. */
  logTail: string;
}

export interface RuntimeIds {
  threadId?: string;
  workflowId?: string;
  runtimeRunId?: string;
}

export interface CellObservation {
  scenario: Scenario;
  repetition: number;
  runId: string;
  runtimeIds: RuntimeIds;
  /** Temporal UI link, when the server is one the user keeps. */
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
  approvals: { at: number; aliveWorker: string | null }[];
}
