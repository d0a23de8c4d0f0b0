import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The fast loop (`pnpm test:unit`): every test that needs no database, no runtime server and no
 * child process, in one run. vitest.unit-guard.ts fails a test that reaches for one; those are
 * named *.e2e.test.ts and run, with everything else, in `pnpm test` (vitest.config.ts).
 */
export default defineConfig({
  test: {
    include: [
      'shared-domain/*/{src,test}/**/*.test.ts',
      '*-impl/{src,harness,test}/**/*.test.ts',
      'compare/{src,test}/**/*.test.ts',
      'crash-test/{src,test}/**/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, '**/*.e2e.test.ts', 'langgraph-impl/test/conformance*.test.ts'],
    setupFiles: ['./vitest.unit-guard.ts'],
    // Most of a unit run is loading modules: threads load them faster than forked processes, and
    // two at a time keep both cores busy (vitest's default is one fewer than the cores: one on two).
    pool: 'threads',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
  },
});
