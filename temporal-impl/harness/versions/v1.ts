/** Release v1's workflow (VERIFY a scheduled activity): the code the recorded histories came from. */
import { lastReleaseWorkflow } from './last-release.ts';

export const vendorReview = lastReleaseWorkflow('activity');
