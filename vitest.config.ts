import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared-domain', 'langgraph-impl', 'temporal-impl', 'compare'],
  },
});
