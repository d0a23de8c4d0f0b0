import { createHash } from 'node:crypto';
import type { ReviewState } from './state.ts';

/**
 * What "the final review equals the uncrashed baseline" compares: the verdicts and the drafted text.
 * Run ids, receipts and timings are deliberately left out, they differ between any two runs.
 */
export function reviewDigest(state: Pick<ReviewState, 'verdicts' | 'draft'>): string {
  const verdicts = Object.keys(state.verdicts)
    .sort()
    .map((id) => state.verdicts[id]);
  const canonical = JSON.stringify({ verdicts, draft: state.draft?.text ?? null });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}
