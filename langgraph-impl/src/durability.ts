import type { Durability, Variant } from '@vendor-review/pipeline';

/**
 * LangGraph's durability modes, chosen per run:
 * - exit:  one checkpoint when the graph exits (returns, interrupts or fails); a hard kill mid-run keeps nothing.
 * - async: LangGraph's default; each step's checkpoint is written while the next step already runs.
 * - sync:  each step's checkpoint is committed before the next step starts.
 *
 * The hardened variant uses `sync`, chosen from measurements, not assumed (test/crash-matrix.e2e
 * test, SIGKILL at every crash point, real PostgreSQL, 4 workers at once on 2 busy cores; numbers
 * in MEASUREMENTS.md):
 * - sync kept exactly the steps completed before the kill in 32 of 32 kills: the last durable
 *   checkpoint was always the step just before the crash point (and the finished FETCH sibling as
 *   a pending write), so a resume repeated only the step that was cut off.
 * - async kept fewer checkpoints than sync in 21 of 24 kills before the approval gate (at load ~20,
 *   11 of 12 kept only LangGraph's input checkpoint): the background writes fall behind fast steps
 *   (SELECT_*, VERIFY, 0 ms page fetches), so the resume re-fetched pages already read and once
 *   re-sent a note. It also lost AWAIT_APPROVAL's checkpoint before a crash in DELIVER, both times.
 *   At load ~25 two kills left not even the input checkpoint (the run could only be restarted).
 *   What async keeps depends on machine load.
 * - exit kept nothing in 16 of 16 kills before the approval gate; only the interrupt's checkpoint.
 * "A step that finished is never run again" is worth one commit round-trip per step (a few ms
 * against steps that take hundreds), and it is what makes the lease fence and the outbox meaningful.
 */

export const HARDENED_DURABILITY: Durability = 'sync';
export const NAIVE_DURABILITY: Durability = 'async';

export function defaultDurability(variant: Variant): Durability {
  return variant === 'hardened' ? HARDENED_DURABILITY : NAIVE_DURABILITY;
}
