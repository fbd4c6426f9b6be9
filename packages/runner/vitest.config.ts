import { defineConfig } from 'vitest/config';

// The test command runs every package's suite at once on small CI machines (2 cores): a
// property test or a file-backed store test that takes 1 s alone can take several there.
export default defineConfig({
  test: { testTimeout: 30_000 },
});
