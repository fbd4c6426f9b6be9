import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { base64ByteLength, base64Problem, decodeBase64, encodeBase64 } from './base64.js';
import { SNIFFED_MEDIA_TYPES, sniffMediaType } from './media-signature.js';

describe('base64', () => {
  it('encodes as Node does and decodes back, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodeBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(base64Problem(text)).toBeUndefined();
        expect(base64ByteLength(text)).toBe(bytes.length);
        expect(decodeBase64(text)).toEqual(bytes);
      }),
    );
  });

  it("codes the same without Node's Buffer (a browser), subarrays and slices past 8 KiB included", () => {
    const saved = globalThis.Buffer;
    // Hidden for the property only: this is the path a browser or a worker takes.
    (globalThis as { Buffer?: unknown }).Buffer = undefined;
    try {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 20_000 }),
          fc.nat(8),
          fc.nat(5_000),
          (bytes, start, keep) => {
            const view = bytes.subarray(Math.min(start, bytes.length));
            const text = encodeBase64(view);
            expect(text).toBe(saved.from(view).toString('base64'));
            expect(decodeBase64(text)).toEqual(view);
            expect(decodeBase64(text, 'data', keep)).toEqual(view.subarray(0, keep));
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      globalThis.Buffer = saved;
    }
  });

  it('decodes only the start when asked', () => {
    const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);
    expect(decodeBase64(encodeBase64(bytes), 'data', 7)).toEqual(bytes.subarray(0, 7));
  });

  it.each([
    ['QQ', /multiple of 4/],
    ['QQ=', /multiple of 4/],
    ['QQ==\n', /invalid base64 character U\+000A at 4/],
    ['QUJD\nREVG', /invalid base64 character U\+000A at 4/],
    ['QUJD REVG', /invalid base64 character " " at 4/],
    ['ab-_', /"-" at 2 \(base64url is not accepted/],
    ['QQ==QQ==', /padding "=" may only end the text, at most twice \(found at 2\)/],
    ['====', /at most twice \(found at 0\)/],
    ['QR==', /not canonical/],
    ['QUJ=', /not canonical/], // "AB" is QUI=; QUJ= has a stray bit after the last byte
    ['é===', /invalid base64 character U\+00E9 at 0/],
  ])('refuses %j', (text, problem) => {
    expect(base64Problem(text)).toMatch(problem);
    const error = (() => {
      try {
        decodeBase64(text, 'messages[0].content[1].data');
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      argument: 'messages[0].content[1].data',
      details: { kind: 'base64' },
    });
  });

  it('refuses what Node would quietly accept or change: any text not made by an encoder', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.string({ unit: fc.constantFrom(...'QUJDab+/=-_ '), maxLength: 12 }),
        ),
        (text) => {
          const problem = base64Problem(text);
          const canonical = Buffer.from(text, 'base64').toString('base64');
          // Accepted exactly when the text is what encoding its bytes gives back.
          expect(problem === undefined).toBe(canonical === text);
        },
      ),
    );
  });
});

describe('sniffMediaType', () => {
  const heads: Record<string, number[]> = {
    'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    'image/jpeg': [0xff, 0xd8, 0xff],
    'image/gif': [...'GIF89a'].map((c) => c.charCodeAt(0)),
    'image/webp': [...'RIFF\0\0\0\0WEBP'].map((c) => c.charCodeAt(0)),
    'application/pdf': [...'%PDF-1.7'].map((c) => c.charCodeAt(0)),
  };

  it('knows each checked type by its header, whatever follows', () => {
    expect(Object.keys(heads).sort()).toEqual([...SNIFFED_MEDIA_TYPES].sort());
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(heads)),
        fc.uint8Array({ maxLength: 64 }),
        (type, tail) => {
          expect(sniffMediaType(Uint8Array.from([...heads[type]!, ...tail]))).toBe(type);
        },
      ),
    );
  });

  it('takes GIF87a, and a PDF header after up to 1 KiB of junk, not later', () => {
    expect(sniffMediaType(new TextEncoder().encode('GIF87a...'))).toBe('image/gif');
    const junk = (n: number) => new TextEncoder().encode(`${' '.repeat(n)}%PDF-1.4`);
    expect(sniffMediaType(junk(1019))).toBe('application/pdf');
    expect(sniffMediaType(junk(1020))).toBeUndefined();
  });

  it('knows nothing in bytes too short or unknown', () => {
    expect(sniffMediaType(new Uint8Array([0x89, 0x50]))).toBeUndefined();
    expect(sniffMediaType(new TextEncoder().encode('RIFF\0\0\0\0WAVE'))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array())).toBeUndefined();
  });
});
