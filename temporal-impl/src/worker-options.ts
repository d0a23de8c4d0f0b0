/**
 * Worker-side timing, next to the activity timeouts in activity-options.ts.
 *
 * STICKY_SCHEDULE_TO_START_TIMEOUT: a worker keeps the workflows it ran cached and asks the server
 * to send their next workflow task to its own "sticky" queue. When that worker is dead, the task
 * waits there this long before it moves to the shared queue where any worker can take it. The
 * default (10s) would add 10s to every takeover; 1s is plenty on one machine.
 *
 * MAX_HEARTBEAT_THROTTLE: the SDK batches heartbeats and sends at most one per interval (by default
 * 80% of the heartbeat timeout). 500ms keeps a 4x margin under the 2s heartbeat timeout when the
 * machine is busy, so a live worker is never mistaken for a dead one.
 *
 * SHUTDOWN_GRACE_MS (the environment's, worker.ts): asked to stop (SIGTERM; the SDK's Runtime shuts
 * the worker down on it by default), a worker stops polling and gives the activities in flight this
 * long to finish, heartbeating as usual, before it cancels them (shutdownGraceTime; 0 by default,
 * which cancels at once). Whoever deploys the worker sets it to end inside the grace its
 * orchestrator gives the process, less SHUTDOWN_TEARDOWN_MS to report the results and close the
 * connection.
 */
export const STICKY_SCHEDULE_TO_START_TIMEOUT = '1s';
export const MAX_HEARTBEAT_THROTTLE = '500ms';
export const SHUTDOWN_TEARDOWN_MS = 1500;
export const WORKFLOWS_ON_MAIN_THREAD = true;
