/**
 * Workflow entry for the bundle: today's code, i.e. v2 with its change guarded by patched().
 * Histories written by v1 replay through the old branch; new runs take the new one.
 */
import { makeVendorReview } from './workflows/review.ts';

export const vendorReview = makeVendorReview();
/** The same pipeline with fewer durable boundaries (domain granularity.ts); started by client.ts per run. */
export const vendorReviewCoarse = makeVendorReview('coarse');
export const vendorReviewPerRequirement = makeVendorReview('per-requirement');
export * from './workflows/definitions.ts';
