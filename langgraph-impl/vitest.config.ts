import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'harness/**/*.test.ts', 'test/**/*.test.ts'],
    // Runs in its own project with vitest globals on (root vitest.config.ts).
    exclude: [...configDefaults.exclude, 'test/conformance*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The e2e files start many worker processes each and run their scenarios concurrently inside;
    // two of them at once on 2 shared cores only makes both slower and flakier.
    fileParallelism: false,
  },
});
