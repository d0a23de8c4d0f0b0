import type { ReviewRequestInput } from '@vendor-review/pipeline';
import { vendorRequest } from '@vendor-review/world';

/** The vendor every cell reviews, and how many of its requirements: enough to loop, few enough to be quick. */
export const CELL_VENDOR = 'acme-analytics';
export const CELL_REQUIREMENTS = 3;

/** The review every cell runs, against the world at `worldUrl`. */
export function cellRequest(worldUrl: string): ReviewRequestInput {
  const request = vendorRequest(CELL_VENDOR, worldUrl);
  return { ...request, requirements: request.requirements.slice(0, CELL_REQUIREMENTS) };
}

/**
 * A request cut to its first requirement: for the hazards that need a run's life (a crash, a
 * restart, its age), not a long review. One requirement still goes through every step, VERIFY
 * and the tracker note included, and ends in an approval and a mail.
 */
export function oneRequirement(request: ReviewRequestInput): ReviewRequestInput {
  return { ...request, requirements: request.requirements.slice(0, 1) };
}
