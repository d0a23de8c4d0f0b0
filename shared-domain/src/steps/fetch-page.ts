import type { Ports } from '../ports.ts';
import type { ReviewState, StateUpdate } from '../state.ts';
import type { StepContext } from './context.ts';

/** One page of a parallel fan-out: which url, and its place among its siblings. */
export interface FetchTarget {
  url: string;
  index: number;
  of: number;
}

/** FETCH: GET one candidate page; fetched[url]. Crash points: after-fetch, parallel-fetch (in the last sibling, after letting the others settle). */
export async function fetchPage(state: ReviewState, ports: Ports, ctx: StepContext, target: FetchTarget): Promise<StateUpdate> {
  throw new Error('fetchPage: not implemented yet');
}
