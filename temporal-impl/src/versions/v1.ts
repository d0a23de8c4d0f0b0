/** The workflow as release v1 shipped it (VERIFY as a scheduled activity): the code the recorded histories came from. */
import { makeVendorReview } from '../workflows/review.ts';

export const vendorReview = makeVendorReview('v1');
