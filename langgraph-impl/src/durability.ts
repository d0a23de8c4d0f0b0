/**
 * LangGraph's durability modes, chosen per run:
 * - exit:  one checkpoint when the graph exits (returns, interrupts or fails); a hard kill mid-run keeps nothing.
 * - async: LangGraph's default; each step's checkpoint is written while the next step already runs.
 * - sync:  each step's checkpoint is committed before the next step starts.
 *
 * The hardened variant uses `sync`, chosen from measurements, not assumed (test/crash-matrix.e2e
 * test, SIGKILL at every crash point, real PostgreSQL, 4 workers at once on 2 busy cores; numbers
 * in MEASUREMENTS.md):
 * - sync kept exactly the steps completed before the kill in 16 of 16 kills: the last durable
 *   checkpoint was always the step just before the crash point (and the finished FETCH sibling as
 *   a pending write), so a resume repeated only the step that was cut off.
 * - async, under that load, kept only LangGraph's input checkpoint in 13 of the 14 kills that came
 *   within the first steps (the puts, chained one after another, fell 5 to 8 steps behind fast
 *   steps like SELECT_PAGE and a 0 ms page fetch), so the resume re-fetched the sitemap and pages
 *   that had already been read; it also lost the AWAIT_APPROVAL step right before a crash in
 *   DELIVER. On an idle machine the same kills kept everything: what async keeps depends on load.
 * - exit kept nothing in 12 of 12 kills before the approval gate; only the interrupt's checkpoint.
 * "A step that finished is never run again" is worth one commit round-trip per step (a few ms
 * against steps that take hundreds), and it is what makes the lease fence and the outbox meaningful.
 */
export type Durability = 'exit' | 'async' | 'sync';

export const HARDENED_DURABILITY: Durability = 'sync';
export const NAIVE_DURABILITY: Durability = 'async';

export function defaultDurability(variant: 'naive' | 'hardened'): Durability {
  return variant === 'hardened' ? HARDENED_DURABILITY : NAIVE_DURABILITY;
}
