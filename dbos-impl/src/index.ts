export { setupDatabase, DBOS_OUTBOX, DBOS_STEP_ERRORS } from './store.ts';
export { APP_NAME, WORKFLOW_RELEASE, releaseVersion } from './identity.ts';
export { launchReviewWorker, readLaunchConfig, type LaunchConfig, type LaunchOptions } from './launch.ts';
export { enqueueReview, sendApproval, REVIEW_QUEUE } from './client.ts';
export type { Boundary, StepWrapper } from './workflow.ts';
