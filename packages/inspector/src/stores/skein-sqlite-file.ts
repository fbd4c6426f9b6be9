import { closeSync, openSync, readSync, statSync } from 'node:fs';

const MAGIC = 'SQLite format 3\0';
const HEADER_SIZE = 100;
/** `PRAGMA application_id` of every file @skein/store-sqlite writes ("SKNC"), at offset 68. */
const SKEIN_APPLICATION_ID = 0x534b4e43;

/**
 * Why the file at `path` is not a Skein SQLite store, or undefined when its header says it is.
 * Reads the first 100 bytes and nothing else: opening the file with SQLite to find out would
 * adopt an empty file or a foreign database as a new store, writing to it.
 */
export function notSkeinSqliteFile(path: string): string | undefined {
  const stat = statSync(path);
  if (!stat.isFile()) return 'not a regular file';
  if (stat.size === 0) return 'the file is empty';
  const header = Buffer.alloc(HEADER_SIZE);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, HEADER_SIZE, 0);
  } finally {
    closeSync(fd);
  }
  if (read < HEADER_SIZE || header.toString('latin1', 0, MAGIC.length) !== MAGIC)
    return 'not a SQLite database';
  const applicationId = header.readUInt32BE(68);
  if (applicationId !== SKEIN_APPLICATION_ID)
    return applicationId === 0
      ? 'a SQLite database with no application id: not written by Skein'
      : `a SQLite database of another application (application id 0x${applicationId.toString(16)})`;
  return undefined;
}
