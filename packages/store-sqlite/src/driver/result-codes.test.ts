import { describe, expect, it } from 'vitest';
import { primaryCodeName } from './result-codes.js';

describe("SQLite's result codes by number (node:sqlite's errcode)", () => {
  it('name the primary code, also for an extended one', () => {
    expect(primaryCodeName(5)).toBe('SQLITE_BUSY');
    // SQLITE_BUSY_SNAPSHOT (5 | 2 << 8), SQLITE_CONSTRAINT_UNIQUE (19 | 8 << 8), SQLITE_IOERR_FSYNC.
    expect(primaryCodeName(517)).toBe('SQLITE_BUSY');
    expect(primaryCodeName(2067)).toBe('SQLITE_CONSTRAINT');
    expect(primaryCodeName(1034)).toBe('SQLITE_IOERR');
    expect(primaryCodeName(26)).toBe('SQLITE_NOTADB');
    expect(primaryCodeName(11)).toBe('SQLITE_CORRUPT');
  });

  it('keep the number of one they do not know', () => {
    expect(primaryCodeName(99)).toBe('SQLITE_99');
  });
});
