import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // At least two test files at once (vitest's default is one fewer than the cores: one on two):
    // the e2e files wait on leases, heartbeats and backoffs, and one at a time left two cores 30 %
    // idle. langgraph-impl and dbos-impl keep fileParallelism off, so their files still run alone.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      'shared-domain/pipeline',
      'shared-domain/instrument',
      'shared-domain/worker-io',
      'shared-domain/world',
      'shared-domain/testbed',
      'shared-domain/conformance',
      'langgraph-impl',
      'temporal-impl',
      'dbos-impl',
      'restate-impl',
      'compare',
      {
        // Inline (no crash-test/vitest.config.ts): one more config file outside a tsconfig would pass
        // the limit of files eslint's default project takes.
        test: {
          name: '@vendor-review/crash-test',
          root: './crash-test',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // The e2e runs side by side on two cores, beside other files: each waits for CPU as much as it works.
          testTimeout: 240_000,
          hookTimeout: 120_000,
        },
      },
      {
        // LangGraph's checkpoint conformance suite calls describe/it/expect as globals; only this project turns them on.
        test: {
          name: 'langgraph-conformance',
          root: './langgraph-impl',
          include: ['test/conformance*.test.ts'],
          globals: true,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
