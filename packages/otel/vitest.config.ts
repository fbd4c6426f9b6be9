import { defineConfig } from 'vitest/config';

// The test command runs every package's suite at once on small CI machines (2 cores).
export default defineConfig({ test: { testTimeout: 30_000 } });
