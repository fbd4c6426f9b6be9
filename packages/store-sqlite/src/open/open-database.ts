import { statSync } from 'node:fs';
import { storeCorrupt, storeTooNew } from '@skein/core/store-kit';
import { pragma, type SqliteConnection, type SqliteDriver } from '../driver/connection.js';
import { sqliteStore, storeForeign, storeIo } from '../errors/store-errors.js';
import { applyMigrations, readApplicationId, readVersion } from '../schema/migrate.js';
import { APPLICATION_ID, MIGRATIONS, type Migration } from '../schema/migrations.js';
import { compareShapes, expectedShape, readShape } from '../schema/schema-shape.js';
import { translateError } from '../translate-error.js';
import { createDatabaseFile } from './create-database-file.js';
import { parseHeader, readHeaderBytes } from './file-header.js';

export interface OpenDatabaseOptions {
  readonly driver: SqliteDriver;
  /** Absolute path, or ':memory:'. */
  readonly filename: string;
  readonly busyTimeoutMs: number;
  readonly synchronous: 'full' | 'normal';
  readonly verify: boolean;
  /** The schema history (tests pass their own). */
  readonly migrations?: readonly Migration[];
}

function sizeIfExists(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Refuses a file that is not a sound Skein database by reading its header bytes only. */
function checkHeader(filename: string, size: number, walSize: number, supported: number): void {
  const reading = parseHeader(readHeaderBytes(filename), size, { checkLength: walSize === 0 });
  if (!reading.ok) throw storeCorrupt(sqliteStore(filename), reading.problem);
  const { applicationId, userVersion } = reading.header;
  if (applicationId !== APPLICATION_ID)
    throw storeForeign(filename, [
      applicationId === 0
        ? 'the SQLite database has no application id (Skein sets 0x534b4e43)'
        : `the SQLite database belongs to application id 0x${(applicationId >>> 0).toString(16)}, not Skein's 0x534b4e43`,
    ]);
  if (userVersion > supported) throw storeTooNew(sqliteStore(filename), userVersion, supported);
}

/** The files SQLite keeps beside a database while it is in use or after a crash. */
const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/**
 * Looks inside an existing file: the version and application id as SQLite sees them (a WAL may
 * hold newer pages than the header), an optional `quick_check`, and the schema against what its
 * version's migrations create. Nothing is written to the file, and a refused file leaves nothing
 * behind.
 *
 * A read-only connection to a WAL-mode file creates `-wal` and `-shm` beside it and, unable to
 * checkpoint, leaves them there. So when nothing lies beside the file, it is read through a
 * read-write connection that only reads: its WAL stays empty, and closing as the last connection
 * removes both files (SQLite decides that under an exclusive lock, so files another process is
 * using stay). When side files exist, a read-write connection would roll back a hot journal or
 * checkpoint a crashed writer's WAL into the file on close, so a read-only one reads instead.
 */
function inspect(filename: string, options: OpenDatabaseOptions, migrations: readonly Migration[]) {
  const alone = SIDE_FILES.every((suffix) => sizeIfExists(`${filename}${suffix}`) === undefined);
  const db = options.driver.open(filename, { readonly: !alone, mustExist: true });
  try {
    setBusyTimeout(db, options.busyTimeoutMs);
    const version = readVersion(db);
    const applicationId = readApplicationId(db);
    const shape = readShape(db);
    const empty = version === 0 && applicationId === 0 && shape.size === 0;
    if (empty) return;
    if (applicationId !== APPLICATION_ID)
      throw storeForeign(filename, [`application id is ${applicationId}, not Skein's`]);
    if (version > migrations.length)
      throw storeTooNew(sqliteStore(filename), version, migrations.length);
    if (options.verify) {
      const rows = db.column<[], string>('PRAGMA quick_check').all();
      const problems = rows.filter((text) => text !== 'ok');
      if (problems.length > 0)
        throw storeCorrupt(sqliteStore(filename), problems.slice(0, 5).join('; '), {
          details: { check: problems },
        });
    }
    const problems = compareShapes(shape, expectedShape(options.driver, migrations, version));
    if (problems.length > 0)
      throw storeForeign(filename, [
        `its tables do not match schema version ${version}`,
        ...problems,
      ]);
  } finally {
    db.close();
  }
}

/** How long SQLite waits for another connection's lock (better-sqlite3's `timeout` option). */
function setBusyTimeout(db: SqliteConnection, ms: number): void {
  db.exec(`PRAGMA busy_timeout = ${ms}`);
}

function configure(db: SqliteConnection, options: OpenDatabaseOptions): void {
  const mode = pragma(db, 'journal_mode = WAL');
  if (mode !== 'wal')
    throw storeIo(
      options.filename,
      'open',
      new Error(`SQLite refused WAL mode (journal mode stays ${String(mode)})`),
    );
  db.exec(`PRAGMA synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
}

/**
 * Opens (creating when missing) a Skein checkpoint database, migrated to the latest schema, in WAL
 * mode with a busy timeout. A file that is corrupt, foreign or too new is refused with a typed
 * error before anything is written to it.
 */
export function openDatabase(options: OpenDatabaseOptions): SqliteConnection {
  const { driver, filename } = options;
  const migrations = options.migrations ?? MIGRATIONS;
  const migrate = (db: SqliteConnection) =>
    applyMigrations(db, migrations, { filename, applicationId: APPLICATION_ID });
  try {
    if (filename === ':memory:') {
      const db = driver.open(':memory:');
      migrate(db);
      return db;
    }
    let size = sizeIfExists(filename);
    if (size === undefined) {
      createDatabaseFile(driver, filename, migrate);
      size = sizeIfExists(filename) ?? 0;
    }
    if (!statSync(filename).isFile())
      throw storeIo(filename, 'open', new Error('the path is not a regular file'));
    const walSize = sizeIfExists(`${filename}-wal`) ?? 0;
    // An empty file (made by mkstemp or touch) is adopted as a new database.
    if (size > 0) checkHeader(filename, size, walSize, migrations.length);
    if (size > 0 || walSize > 0) inspect(filename, options, migrations);
    const db = driver.open(filename, { mustExist: true });
    try {
      setBusyTimeout(db, options.busyTimeoutMs);
      migrate(db);
      configure(db, options);
    } catch (error) {
      db.close();
      throw error;
    }
    return db;
  } catch (error) {
    throw translateError(error, {
      driver,
      filename,
      operation: 'open',
      busyTimeoutMs: options.busyTimeoutMs,
    });
  }
}
