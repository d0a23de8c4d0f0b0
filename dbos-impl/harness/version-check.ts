/**
 * The hardened worker's version check across deploys. DBOS recovers a workflow only in a process
 * of the application version it was started under, and a worker of another version that starts the
 * same workflow id only attaches to it: the run would wait, with nothing said. Hardened says so
 * and leaves the run to a worker of its version (DBOS's way across a deploy: keep the previous
 * version's workers until its runs have drained).
 */
export const VERSION_CHECK_EXIT = 6;

/** The line the check prints, and how the drills find it in a worker's output. */
export const VERSION_CHECK = /version check: run \S+ was started under application version \S+[^\n]*/;

export function versionCheckLine(runId: string, recorded: string, mine: string): string {
  return `version check: run ${runId} was started under application version ${recorded}; this worker is ${mine}: leaving it to a worker of ${recorded}`;
}
