import { readFileSync } from 'node:fs';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/**
 * Counts the transactions committed into a database's write-ahead log since it was last reset,
 * read from the file as SQLite wrote it: a frame whose header carries the database size after
 * the commit ends a transaction, and only frames with the log header's salts belong to it (a
 * reset log keeps the older frames behind a new salt). The salts come back too, so a caller can
 * tell that no reset happened between two counts.
 */
export function walCommits(filename: string): { commits: number; salts: string } {
  const wal = readFileSync(`${filename}-wal`);
  if (wal.length < WAL_HEADER) return { commits: 0, salts: '' };
  const pageSize = wal.readUInt32BE(8);
  const salts = wal.subarray(16, 24);
  let commits = 0;
  for (
    let at = WAL_HEADER;
    at + FRAME_HEADER + pageSize <= wal.length;
    at += FRAME_HEADER + pageSize
  ) {
    if (!wal.subarray(at + 8, at + 16).equals(salts)) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return { commits, salts: salts.toString('hex') };
}
