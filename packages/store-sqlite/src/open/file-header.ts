import { closeSync, openSync, readSync } from 'node:fs';

/** The fields of SQLite's 100-byte file header this package relies on. */
interface SqliteHeader {
  readonly pageSize: number;
  /** Pages the header says the file holds; undefined when the header's count is stale. */
  readonly pageCount: number | undefined;
  readonly userVersion: number;
  readonly applicationId: number;
}

export type HeaderReading =
  | { readonly ok: true; readonly header: SqliteHeader }
  | { readonly ok: false; readonly problem: string };

const HEADER_SIZE = 100;
const MAGIC = 'SQLite format 3\0';

/**
 * Reads a database file's header as SQLite defines it (https://sqlite.org/fileformat.html#the_database_header).
 * `checkLength` compares the file size with the page count in the header; skip it while a WAL file
 * holds frames not yet copied into the database (a checkpoint may be halfway).
 */
export function parseHeader(
  bytes: Uint8Array,
  fileSize: number,
  options: { readonly checkLength: boolean },
): HeaderReading {
  if (fileSize < HEADER_SIZE)
    return {
      ok: false,
      problem: `the file is ${fileSize} bytes, shorter than a SQLite header (${HEADER_SIZE} bytes)`,
    };
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < HEADER_SIZE || view.toString('latin1', 0, 16) !== MAGIC)
    return { ok: false, problem: 'the file does not start with the SQLite header string' };
  const rawPageSize = view.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0)
    return {
      ok: false,
      problem: `the header's page size ${rawPageSize} is not a power of two in 512..65536`,
    };
  // The in-header page count is only valid when written by the same change as the counter.
  const countValid = view.readUInt32BE(24) === view.readUInt32BE(92);
  const pageCount = countValid ? view.readUInt32BE(28) : undefined;
  if (options.checkLength) {
    if (fileSize % pageSize !== 0)
      return {
        ok: false,
        problem: `the file is ${fileSize} bytes, not a whole number of ${pageSize}-byte pages (truncated?)`,
      };
    if (pageCount !== undefined && fileSize < pageCount * pageSize)
      return {
        ok: false,
        problem: `the file is truncated: the header says ${pageCount} pages of ${pageSize} bytes (${pageCount * pageSize} bytes) but the file has ${fileSize}`,
      };
  }
  return {
    ok: true,
    header: {
      pageSize,
      pageCount,
      userVersion: view.readInt32BE(60),
      applicationId: view.readInt32BE(68),
    },
  };
}

/** The first 100 bytes of a file (fewer when it is shorter), read without changing it. */
export function readHeaderBytes(filename: string): Uint8Array {
  const bytes = Buffer.alloc(HEADER_SIZE);
  const fd = openSync(filename, 'r');
  try {
    const read = readSync(fd, bytes, 0, HEADER_SIZE, 0);
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
