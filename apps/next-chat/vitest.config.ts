import { defineConfig } from 'vitest/config';

// The test starts the app `next build` made (the `build` script, which turbo runs first) and
// talks to it over HTTP. A cold `next start` on a busy 2-core machine takes seconds.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 180_000 },
});
