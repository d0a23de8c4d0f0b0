import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { buildWorkflowBundle } from '../../src/bundle.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    workflowBundle: string;
  }
}

/** The workflow bundle is built once per test run, as the harness does, and every worker process loads it. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'temporal-bundle-'));
  const { path, ms } = await buildWorkflowBundle(join(dir, 'workflow-bundle.js'));
  process.stderr.write(`workflow bundle built once in ${ms}ms: ${path}\n`);
  project.provide('workflowBundle', path);
}
