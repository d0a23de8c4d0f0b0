import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'harness/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    // Each crash scenario runs two real worker processes; four scenarios at a time fit two cores.
    maxConcurrency: 4,
  },
});
