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
      'crash-test',
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
