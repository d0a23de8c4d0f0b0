import { fileURLToPath } from 'node:url';
import type { Built } from '@vendor-review/testbed';
import { cachedWorkflowBundle } from '../../src/bundle.ts';

export const BENCH_WORKFLOWS_PATH = fileURLToPath(new URL('./workflows.ts', import.meta.url));

/** The benchmark's bundle (review + bare workflows), cached like the workers' own. */
export function cachedBenchBundle(): Promise<Built> {
  return cachedWorkflowBundle({ workflowsPath: BENCH_WORKFLOWS_PATH, name: 'bench-workflow-bundle' });
}
