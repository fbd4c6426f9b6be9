import { defineConfig } from 'vitest/config';

// The test command runs every package's suite at once on small CI machines (2 cores): a browser
// test that takes 2 s alone can take many times that there.
// `expect.poll` waits for what the page shows; its 1 s default is a wall-clock bet such a machine
// loses, so a poll gives up only when the test's own time is nearly spent.
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 120_000, expect: { poll: { timeout: 30_000 } } },
});
