/**
 * The v2 change shipped WITHOUT patched(): replaying a v1 history through it must fail. Never
 * shipped for real; the replay test and the deploy drill's naive row run it to show what it does.
 */
import { lastReleaseWorkflow } from './last-release.ts';

export const vendorReview = lastReleaseWorkflow('local');
