export { setupDatabase, DBOS_OUTBOX, DBOS_STEP_ERRORS } from './store.ts';
export { APP_NAME, WORKFLOW_RELEASE, releaseVersion } from './identity.ts';
export { runWorker, type WorkerOptions } from './run-worker.ts';
export type { Boundary, StepWrapper } from './workflow.ts';
