// SQLite's primary result codes (sqlite3.h), by number. node:sqlite reports a failure's extended
// code as a number (`errcode`); its low byte is the primary code, named here as better-sqlite3
// names codes, so the store reads both drivers' errors the same way.
const PRIMARY = [
  'OK',
  'ERROR',
  'INTERNAL',
  'PERM',
  'ABORT',
  'BUSY',
  'LOCKED',
  'NOMEM',
  'READONLY',
  'INTERRUPT',
  'IOERR',
  'CORRUPT',
  'NOTFOUND',
  'FULL',
  'CANTOPEN',
  'PROTOCOL',
  'EMPTY',
  'SCHEMA',
  'TOOBIG',
  'CONSTRAINT',
  'MISMATCH',
  'MISUSE',
  'NOLFS',
  'AUTH',
  'FORMAT',
  'RANGE',
  'NOTADB',
  'NOTICE',
  'WARNING',
] as const;

/** `SQLITE_BUSY` for 5 and for its extended codes (5 | n << 8); `SQLITE_<n>` for an unknown one. */
export function primaryCodeName(code: number): string {
  const primary = code & 0xff;
  return `SQLITE_${PRIMARY[primary] ?? primary}`;
}
