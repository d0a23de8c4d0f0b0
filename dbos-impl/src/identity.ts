/**
 * The names DBOS recovers by. On launch a DBOS process re-runs the PENDING workflows recorded
 * under its own executor id and application version, and no others: a replacement process
 * recovers a dead one's runs only if it takes the same identity. The worker takes all three names
 * from its configuration (DBOS_APP_NAME, DBOS_EXECUTOR_ID, DBOS_APP_VERSION): who runs which run
 * under which name is the deployment's choice, not the application's.
 */

/** The application, when the deployment names none. */
export const APP_NAME = 'vendor-review';

/** The release of the workflow code: a deploy that changes the steps' order must raise it. */
export const WORKFLOW_RELEASE = 1;

/**
 * Hardened pins the application version to the release, and a worker only recovers runs of its
 * own version. Naive leaves the version to DBOS, which hashes the registered workflows' source.
 */
export function releaseVersion(release: number = WORKFLOW_RELEASE): string {
  return `${APP_NAME}-${release}`;
}
