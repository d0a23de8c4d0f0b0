import type { ReviewState } from '@vendor-review/pipeline';
import type { NodeDeps } from './nodes.ts';
import { nodeRetryPolicy } from './retry.ts';

/** A conditional edge that takes a failed run to DEAD_LETTER and any other to `next`. */
export const failedOr =
  <T extends string>(next: T) =>
  (s: ReviewState) =>
    s.failure ? 'DEAD_LETTER' : next;

/**
 * The options of a working node, by its name: hardened, the retry rule of its step's kind (retry.ts);
 * naive is the graph as a tutorial writes it, with no retry policy at all.
 */
export function nodePolicy(deps: Pick<NodeDeps, 'variant'>) {
  return (node: string) => (deps.variant === 'hardened' ? { retryPolicy: nodeRetryPolicy(node) } : {});
}
