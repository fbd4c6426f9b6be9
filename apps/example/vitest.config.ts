import { defineConfig } from 'vitest/config';

// Each test starts the app as a child process (tsx compiles it on the fly): seconds, not ms.
export default defineConfig({ test: { testTimeout: 120_000 } });
