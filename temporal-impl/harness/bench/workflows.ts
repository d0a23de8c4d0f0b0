/**
 * The benchmark's workflow bundle: today's review workflow and the bare ones beside it, so one
 * in-process worker runs all of them on one connection.
 */
export { vendorReview } from '../../src/workflows.ts';
export { bareReview, noopChain } from './bare-workflow.ts';
