import { createHash } from 'node:crypto';
import type { ReviewState } from './state.ts';

/**
 * What "the final review equals the uncrashed baseline" compares: the verdicts and the drafted text.
 * Run ids, receipts and timings are deliberately left out, they differ between any two runs; so is the
 * origin of evidence URLs, which names whichever world (host and port) the run happened to use.
 */
export function reviewDigest(state: Pick<ReviewState, 'verdicts' | 'draft'>): string {
  const verdicts = Object.keys(state.verdicts)
    .sort()
    .map((id) => state.verdicts[id]);
  const canonical = JSON.stringify({ verdicts, draft: state.draft?.text ?? null }).replace(/https?:\/\/[^/"\s]+/g, '');
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}
