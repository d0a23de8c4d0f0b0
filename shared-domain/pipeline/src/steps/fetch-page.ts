import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import { callMeta, type StepContext } from './context.ts';

/** One page of a parallel fan-out: which url, and its place among its siblings. */
export interface FetchTarget {
  url: string;
  index: number;
  of: number;
}

/** FETCH: GET one candidate page (unless this run already has it); fetched[url]. */
export async function fetchPage(
  state: ReviewState,
  ports: Ports,
  ctx: StepContext,
  target: FetchTarget,
): Promise<StateUpdate> {
  // A page read for an earlier requirement is not read again: within a run, a second GET of the
  // same page in the world's ledger then always means repeated work, never routine.
  const page = state.fetched[target.url] ?? (await ports.web.get(target.url, callMeta(ctx)));
  return { fetched: { [target.url]: { url: target.url, title: page.title, text: page.text } } };
}
