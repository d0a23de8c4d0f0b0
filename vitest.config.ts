import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'shared-domain/pipeline',
      'shared-domain/worker-io',
      'shared-domain/world',
      'shared-domain/testbed',
      'shared-domain/conformance',
      'langgraph-impl',
      'temporal-impl',
      'dbos-impl',
      'compare',
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
