import { APP_NAME, releaseVersion, WORKFLOW_RELEASE } from '../src/identity.ts';

/**
 * The names the harness gives a run's workers (the adapter passes them as DBOS_APP_NAME,
 * DBOS_EXECUTOR_ID and DBOS_APP_VERSION): one executor id per run (the run's worker is "the
 * machine" of that run, restarted under the same name by its supervisor), so recovering one run
 * never takes over another run a live worker is executing.
 */

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

/**
 * Hardened's version, the release's (src/identity.ts) with the run: DBOS wants version names
 * unique across the applications of a system database (measured: a second application launching
 * with a version another one registered fails), and every run is an application here.
 */
export function hardenedVersionFor(runId: string, release: number = WORKFLOW_RELEASE): string {
  return `${releaseVersion(release)}+${runId}`;
}
