/** The v2 change shipped WITHOUT patched(): replaying a v1 history through it must fail. Never deployed; kept to prove the point. */
import { makeVendorReview } from '../../src/workflows/review.ts';

export const vendorReview = makeVendorReview('unpatched');
