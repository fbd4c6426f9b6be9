import { describe, expect, it } from 'vitest';
import { parseHeader } from './file-header.js';

function header(fields: {
  pageSize?: number;
  pages?: number;
  stale?: boolean;
  appId?: number;
  version?: number;
}) {
  const bytes = Buffer.alloc(100);
  bytes.write('SQLite format 3\0', 0, 'latin1');
  bytes.writeUInt16BE(fields.pageSize ?? 4096, 16);
  bytes.writeUInt32BE(7, 24);
  bytes.writeUInt32BE(fields.pages ?? 2, 28);
  bytes.writeUInt32BE(fields.stale ? 6 : 7, 92);
  bytes.writeInt32BE(fields.version ?? 0, 60);
  bytes.writeInt32BE(fields.appId ?? 0, 68);
  return bytes;
}

describe('parseHeader', () => {
  it('reads page size, page count, user version and application id', () => {
    expect(
      parseHeader(header({ pages: 3, appId: 0x534b4e43, version: 1 }), 3 * 4096, {
        checkLength: true,
      }),
    ).toEqual({
      ok: true,
      header: { pageSize: 4096, pageCount: 3, userVersion: 1, applicationId: 0x534b4e43 },
    });
    // 1 stands for 65536.
    const big = parseHeader(header({ pageSize: 1, pages: 1 }), 65_536, { checkLength: true });
    expect(big).toMatchObject({ ok: true, header: { pageSize: 65_536 } });
  });

  it('ignores a page count the header marks as stale', () => {
    expect(
      parseHeader(header({ pages: 9, stale: true }), 4096, { checkLength: true }),
    ).toMatchObject({
      ok: true,
      header: { pageCount: undefined },
    });
  });

  it('refuses short files, a wrong magic string and impossible page sizes', () => {
    expect(parseHeader(header({}), 99, { checkLength: true })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/99 bytes/),
    });
    const wrong = header({});
    wrong.write('SQLite format 2', 0, 'latin1');
    expect(parseHeader(wrong, 8192, { checkLength: true })).toMatchObject({ ok: false });
    expect(parseHeader(header({ pageSize: 1000 }), 8192, { checkLength: true })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/page size 1000/),
    });
  });

  it('finds truncation unless a WAL may still hold the missing pages', () => {
    const bytes = header({ pages: 4 });
    expect(parseHeader(bytes, 2 * 4096, { checkLength: true })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/truncated: the header says 4 pages/),
    });
    expect(parseHeader(bytes, 2 * 4096 + 10, { checkLength: true })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not a whole number/),
    });
    expect(parseHeader(bytes, 2 * 4096, { checkLength: false })).toMatchObject({ ok: true });
  });
});
