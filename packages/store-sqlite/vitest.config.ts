import { defineConfig } from 'vitest/config';
import type { SqliteDriverName } from './src/driver/connection.js';
import { nodeSqliteAvailable } from './src/driver/node-sqlite.js';

// Every test file runs once per driver, as a vitest project of that name with
// SKEIN_TEST_SQLITE_DRIVER set (src/test-support/driver.ts reads it; child processes inherit it).
// node:sqlite is a project only where the store itself could use it: the same runtime check
// (nodeSqliteAvailable, tested in src/driver/node-sqlite.test.ts) decides both, and Node 20,
// which has no node:sqlite, gets one line saying so instead of skipped tests.
const drivers: SqliteDriverName[] = ['better-sqlite3'];
if (nodeSqliteAvailable()) drivers.push('node:sqlite');
// Said once per run: vitest evaluates this file again for the projects that extend it.
else if (process.env.SKEIN_SQLITE_PROJECTS_SAID === undefined) {
  process.env.SKEIN_SQLITE_PROJECTS_SAID = '1';
  console.log(
    `@skein/store-sqlite: the node:sqlite project is not run: Node ${process.version} has no node:sqlite (22.13 and later have it)`,
  );
}

// The test command runs every package's suite at once on small CI machines (2 cores): a
// property test or a file-backed store test that takes 1 s alone can take several there.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    projects: drivers.map((driver) => ({
      extends: true,
      test: { name: driver, env: { SKEIN_TEST_SQLITE_DRIVER: driver } },
    })),
  },
});
