/**
 * Our own naive activities in the shape `pnpm crash-test` takes from a team's activities module:
 * `createActivities()`, the ports over HTTP to the world at WORLD_URL, as every worker has them. The
 * workflows module is src/workflows.ts itself. What the tool finds is held against `pnpm compare`'s
 * rows for the same workflow (test/crash-test-agreement.e2e.test.ts).
 */
import { createHttpPorts } from '@vendor-review/worker-io';
import { createActivities as activitiesOf } from '../src/activities.ts';

export function createActivities() {
  return activitiesOf({ ports: createHttpPorts(), worker: `pid-${process.pid}` });
}
