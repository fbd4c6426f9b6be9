import { defineConfig } from 'vitest/config';

// Every test file starts a real PostgreSQL server (about 1 s alone, several on a loaded 2-core
// CI machine), and the multi-process test runs worker processes for tens of seconds.
// example-wiring/ holds files for apps/example, tested there.
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 120_000, include: ['src/**/*.test.ts'] },
});
