import { defineConfig } from 'vitest/config';

// The end-to-end test restarts the service on one SQLite file: seconds on a busy 2-core machine.
export default defineConfig({ test: { testTimeout: 60_000 } });
