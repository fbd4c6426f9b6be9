import { defineConfig } from 'vitest/config';

// The test command runs every package's suite at once on small CI machines (2 cores): a
// property test or a file-backed store test that takes 1 s alone can take several there.
// Generous: the CLI tests start real processes through tsx, and CI machines may be busy.
// `expect.poll` waits for notifications a server sends; its 1 s default is a wall-clock bet such
// a machine loses, so a poll gives up only when the test's own time is nearly spent.
export default defineConfig({
  test: { testTimeout: 90_000, expect: { poll: { timeout: 60_000 } } },
});
