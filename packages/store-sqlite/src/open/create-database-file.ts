import { randomBytes } from 'node:crypto';
import { constants, copyFileSync, linkSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SqliteConnection, SqliteDriver } from '../driver/connection.js';

function removeQuietly(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm'])
    rmSync(`${path}${suffix}`, { force: true });
}

/**
 * Creates `filename` complete or not at all: the database is built under a temporary name beside
 * it (`init` runs there, in WAL mode), then hard-linked into place, which fails if another process
 * created the file first. A crash halfway leaves a stray temporary file, never a half-made
 * database. Returns false when the file already existed (the caller then opens that one).
 */
export function createDatabaseFile(
  driver: SqliteDriver,
  filename: string,
  init: (db: SqliteConnection) => void,
): boolean {
  const temporary = join(
    dirname(filename),
    `.${basename(filename)}.${process.pid}-${randomBytes(4).toString('hex')}.creating`,
  );
  try {
    const db = driver.open(temporary);
    try {
      init(db);
      db.exec('PRAGMA journal_mode = WAL');
    } finally {
      db.close();
    }
    try {
      linkSync(temporary, filename);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    }
    // A file system without hard links: an exclusive copy still never replaces someone's file.
    try {
      copyFileSync(temporary, filename, constants.COPYFILE_EXCL);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  } finally {
    removeQuietly(temporary);
  }
}
