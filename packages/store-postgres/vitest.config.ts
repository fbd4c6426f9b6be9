import { defineConfig } from 'vitest/config';

// Each test file starts its own PostgreSQL server (about 1 s alone, several on a busy 2-core
// machine), and the multi-process tests spawn Node children: generous timeouts throughout.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 120_000 } });
