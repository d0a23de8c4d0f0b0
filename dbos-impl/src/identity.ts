/**
 * The names DBOS recovers by. On launch a DBOS process re-runs the PENDING workflows recorded
 * under its own executor id and application version, and no others: a replacement process
 * recovers a dead one's runs only if it takes the same identity. One executor id per run (the
 * run's worker is "the machine" of that run, restarted under the same name by its supervisor),
 * so recovering one run never takes over another run a live worker is executing.
 */
export const APP_NAME = 'vendor-review';

/**
 * The DBOS application a run's workers belong to: one per run. DBOS scopes its queues, and so
 * recovery, by application name: launch re-enqueues the executor's PENDING workflows on the
 * internal queue, and ANY process of the same application and version dequeues them from there
 * (measured: a replacement worker of one run executed another run's recovered workflow, and left
 * it PENDING when it exited after its own). One application per run keeps each run's recovery
 * to that run's workers.
 */
export function appNameFor(runId: string): string {
  return `${APP_NAME}:${runId}`;
}

export function executorIdFor(runId: string): string {
  return `exec-${runId}`;
}

/** The release of the workflow code: a deploy that changes the steps' order must raise it. */
export const WORKFLOW_RELEASE = 1;

/**
 * Hardened pins the application version to the release, and a worker only recovers runs of its
 * own version. DBOS wants version names unique across the applications of a system database
 * (measured: a second application launching with a version another one registered fails), so
 * the run's application carries the run in its version too. Naive leaves the version to DBOS,
 * which hashes the registered workflows' source.
 */
export function hardenedVersionFor(runId: string, release: number = WORKFLOW_RELEASE): string {
  return `vendor-review-${release}+${runId}`;
}
