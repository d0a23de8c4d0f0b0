import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'harness/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    // The e2e files start many worker processes each and run their scenarios concurrently inside.
    fileParallelism: false,
  },
});
