import type { ReviewRequestInput } from '../domain/request.ts';
import { vendorRequest } from '../world/requests.ts';

/** The vendor every cell reviews, and how many of its requirements: enough to loop, few enough to be quick. */
export const CELL_VENDOR = 'acme-analytics';
export const CELL_REQUIREMENTS = 3;

/** The review every cell runs, against the world at `worldUrl`. */
export function cellRequest(worldUrl: string): ReviewRequestInput {
  const request = vendorRequest(CELL_VENDOR, worldUrl);
  return { ...request, requirements: request.requirements.slice(0, CELL_REQUIREMENTS) };
}
