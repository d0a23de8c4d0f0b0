/**
 * What a hardened cell's endpoint says when its run is pinned to another deployment (last
 * release's code, at last release's address), as a team's deploy check would: Restate replays an
 * invocation only on the deployment it started on, so this endpoint will never be given the run.
 * It leaves it to an endpoint of that deployment, and exits with this code.
 */
export const DEPLOYMENT_CHECK_EXIT = 6;

export const DEPLOYMENT_CHECK = /deployment check: run \S+ is pinned to deployment \S+[^\n]*/;

export function deploymentCheckLine(runId: string, pinned: string, own: string): string {
  return `deployment check: run ${runId} is pinned to deployment ${pinned}, this endpoint is deployment ${own}: leaving it to an endpoint of ${pinned}`;
}
