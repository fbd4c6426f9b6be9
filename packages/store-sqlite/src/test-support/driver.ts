import { chooseDriver } from '../driver/choose-driver.js';
import type {
  OpenOptions,
  SqliteConnection,
  SqliteDriver,
  SqliteDriverName,
} from '../driver/connection.js';
import { SqliteCheckpointStore } from '../sqlite-checkpoint-store.js';
import type { SqliteCheckpointStoreOptions } from '../store-options.js';

// The driver the tests run on. vitest.config.ts runs every test file once per driver this Node
// has, setting SKEIN_TEST_SQLITE_DRIVER for each; the child processes the tests start inherit it.

function driverUnderTest(): SqliteDriverName {
  const name = process.env.SKEIN_TEST_SQLITE_DRIVER;
  if (name === 'better-sqlite3' || name === 'node:sqlite') return name;
  throw new Error(
    `SKEIN_TEST_SQLITE_DRIVER is ${JSON.stringify(name)}: run the tests through vitest.config.ts, which sets it to 'better-sqlite3' or 'node:sqlite'`,
  );
}

export const DRIVER: SqliteDriverName = driverUnderTest();

/** The driver under test, as the store loads it. */
export function testDriver(): SqliteDriver {
  return chooseDriver(DRIVER, ':memory:');
}

/** A store on the driver under test. */
export function openStore(options: SqliteCheckpointStoreOptions): SqliteCheckpointStore {
  return new SqliteCheckpointStore({ driver: DRIVER, ...options });
}

/** A plain connection to `filename` through the driver under test, as another program would open it. */
export function openRaw(filename: string, options?: OpenOptions): SqliteConnection {
  return testDriver().open(filename, options);
}

/** Runs `work` on a plain connection to `filename`, closing it after. */
export function withRaw<T>(
  filename: string,
  work: (db: SqliteConnection) => T,
  options?: OpenOptions,
): T {
  const db = openRaw(filename, options);
  try {
    return work(db);
  } finally {
    db.close();
  }
}
