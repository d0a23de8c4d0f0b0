import type { ReviewRequestInput } from '@vendor-review/pipeline';
import { CELL_VENDOR } from '@vendor-review/conformance';
import { vendorRequest } from '@vendor-review/world';

/**
 * A review of `n` requirements of the cells' vendor. The world's vendors answer six kinds of
 * requirement; past six, the kinds come round again under new ids (`pricing-2`, …) with the
 * kind's own question, so each is a real requirement the steps locate evidence for (by its
 * question's words) and the run does all of its work again: a selection, a model call, a verdict,
 * a tracker note. Pages already read are not fetched twice, so the fetched pages stop growing once
 * every kind has been seen. The request schema takes at most 20 requirements.
 */
export const MAX_REQUIREMENTS = 20;

export function sizedRequest(
  worldUrl: string,
  n: number,
  o: { pagesPerRequirement?: number } = {},
): ReviewRequestInput {
  if (n < 1 || n > MAX_REQUIREMENTS) throw new Error(`a request has 1 to ${MAX_REQUIREMENTS} requirements, not ${n}`);
  const base = vendorRequest(CELL_VENDOR, worldUrl);
  const kinds = base.requirements;
  const requirements = Array.from({ length: n }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    const round = Math.floor(i / kinds.length);
    return round === 0 ? kind : { id: `${kind.id}-${round + 1}`, question: kind.question };
  });
  return {
    ...base,
    requirements,
    ...(o.pagesPerRequirement ? { options: { maxPagesPerRequirement: o.pagesPerRequirement } } : {}),
  };
}

/** Logical steps of a review of `n` requirements: VALIDATE, DISCOVER, six per requirement (the parallel FETCH counted once), DRAFT, AWAIT_APPROVAL, DELIVER. */
export function logicalSteps(n: number): number {
  return 2 + 6 * n + 3;
}
