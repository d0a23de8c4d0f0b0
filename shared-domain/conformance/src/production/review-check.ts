import type { ReviewRequestInput, ReviewState } from '@vendor-review/pipeline';
import { EXPECTED_VERDICTS } from '@vendor-review/world';

/**
 * Whether a finished run holds the review the vendor's pages support: each requested
 * requirement's verdict against the world's answer key (EXPECTED_VERDICTS), which no worker can
 * influence. Null when the request names a vendor the world has no key for.
 */
export function reviewAgainstWorld(
  request: ReviewRequestInput,
  state: ReviewState | null,
): { right: boolean; wrong: string[] } | null {
  const slug = /\/vendors\/([^/]+)\/?$/.exec(request.vendor?.baseUrl ?? '')?.[1];
  const key = slug ? EXPECTED_VERDICTS[slug] : undefined;
  if (!key) return null;
  const wrong: string[] = [];
  for (const { id } of request.requirements ?? []) {
    const got = state?.verdicts?.[id]?.status ?? 'none';
    if (got !== key[id]) wrong.push(`${id}: ${got}, the pages say ${key[id]}`);
  }
  return { right: wrong.length === 0, wrong };
}
