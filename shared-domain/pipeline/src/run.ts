import type { ReviewState } from './state.ts';

/**
 * A review run as its application sees it: the two ways each runtime's pipeline is written
 * (naive, hardened), the durability a checkpointing runtime may be asked for, where a run is, and
 * the person's decision at the approval gate.
 */

/** naive: the tutorial way (no keys, no lease, default retries); hardened: what production needs. */
export type Variant = 'naive' | 'hardened';
export const VARIANTS: readonly Variant[] = ['naive', 'hardened'];

/** LangGraph's durability modes (when a step's checkpoint is written); runtimes without them use null. */
export type Durability = 'sync' | 'async' | 'exit';
export const DURABILITIES: readonly Durability[] = ['sync', 'async', 'exit'];

export type RunStatus = 'pending' | 'running' | 'awaiting-approval' | 'completed' | 'failed' | 'not-found';

export function isTerminal(status: RunStatus): boolean {
  return status === 'completed' || status === 'failed';
}

export interface RunView {
  status: RunStatus;
  /** Null when the runtime cannot say right now (a cheap status poll, no live worker to ask, or the run is gone). */
  state: ReviewState | null;
  /** Plain words from the runtime when the run is gone or cannot be read. */
  reason?: string;
}

export interface Decision {
  approved: boolean;
  by: string;
  note?: string;
}
