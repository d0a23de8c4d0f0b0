export { setupDatabase, DBOS_OUTBOX, DBOS_STEP_ERRORS } from './store.ts';
export { appNameFor, executorIdFor, hardenedVersionFor, APP_NAME, WORKFLOW_RELEASE } from './identity.ts';
