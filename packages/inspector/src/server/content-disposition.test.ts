import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition.js';

// What a browser takes from the header: `filename*` decoded when present (RFC 8187).
function extendedName(header: string): string {
  const match = /filename\*=UTF-8''([^;]*)/.exec(header);
  if (!match) throw new Error(`no filename* in ${header}`);
  return decodeURIComponent(match[1]!);
}

describe('contentDisposition', () => {
  it('names a plain ASCII file the same in both parameters', () => {
    expect(contentDisposition('attachment', 'report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
  });

  it('keeps quotes, backslashes and non-ASCII out of the quoted name, exact in filename*', () => {
    const name = 'plan "final" \\ été 日本.csv';
    const header = contentDisposition('attachment', name);
    expect(header).toMatch(/^attachment; filename="plan _final_ _ _t_ __\.csv"; filename\*=/);
    expect(extendedName(header)).toBe(name);
    // Only RFC 8187 attr-chars are left unencoded in filename*.
    expect(header.split("filename*=UTF-8''")[1]).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]*$/);
  });

  it('cannot be split into another header by a name holding CR LF, and survives lone surrogates', () => {
    const header = contentDisposition('inline', 'a\r\nSet-Cookie: x=1\ud800.png');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('inline; filename="a__Set-Cookie: x=1_.png"')).toBe(true);
    expect(extendedName(header)).toBe('a\r\nSet-Cookie: x=1\ufffd.png');
  });

  it('encodes the characters encodeURIComponent leaves but RFC 8187 does not allow', () => {
    expect(contentDisposition('attachment', "it's (1)*.txt")).toContain(
      "filename*=UTF-8''it%27s%20%281%29%2A.txt",
    );
  });
});
