import { defineConfig } from 'vitest/config';

// The test command runs every package's suite at once on small CI machines (2 cores): a browser
// test that takes 2 s alone can take many times that there.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 120_000 } });
