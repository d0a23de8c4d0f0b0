import type { StateUpdate } from '../state.ts';

/** DEAD_LETTER: what a person needs to decide about a run that cannot go on. The runtime persists it and marks the run failed. */
export function deadLetter(entry: { step: string; error: unknown; attempts: number; input: unknown }): StateUpdate {
  const error = entry.error instanceof Error ? `${entry.error.name}: ${entry.error.message}` : String(entry.error);
  return { failure: { step: entry.step, error, attempts: entry.attempts, input: entry.input } };
}
