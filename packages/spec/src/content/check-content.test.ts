import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { SkeinError } from '../errors/skein-error.js';
import { encodeBase64 } from './base64.js';
import {
  type CheckContentOptions,
  checkContent,
  contentProblem,
  DEFAULT_MAX_ATTACHMENT_BYTES,
} from './check-content.js';
import type { ContentPart } from './content-part.js';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (tail: number[] = [0, 0, 0, 13]) => Uint8Array.from([...PNG_HEAD, ...tail]);
const ascii = (text: string) => new TextEncoder().encode(text);
const PDF = ascii('%PDF-1.7\n%âãÏÓ\n1 0 obj');
const DIGEST = `sha256:${'ab'.repeat(32)}`;

/** What checkContent threw (it must throw an InvalidArgumentError). */
function refusal(value: unknown, where?: string, options?: CheckContentOptions) {
  try {
    checkContent(value, where, options);
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    return error as InvalidArgumentError;
  }
  throw new Error(`accepted ${String(value)}`);
}

/** A one-part content's refusal. */
const refuse = (part: unknown, options?: CheckContentOptions) =>
  refusal([{ type: 'text', text: 'see:' }, part], 'messages[2].content', options);

describe('checkContent accepts', () => {
  it.each<[string, ContentPart]>([
    ['a text part', { type: 'text', text: 'hello' }],
    ['an empty text part', { type: 'text', text: '' }],
    ['PNG bytes', { type: 'image', mediaType: 'image/png', data: png() }],
    ['a Node Buffer', { type: 'image', mediaType: 'image/png', data: Buffer.from(png()) }],
    ['PNG as base64', { type: 'image', mediaType: 'image/png', data: encodeBase64(png()) }],
    ['a mediaType in capitals', { type: 'image', mediaType: 'Image/PNG', data: png() }],
    [
      'JPEG as image/jpg',
      { type: 'image', mediaType: 'image/jpg', data: Uint8Array.of(255, 216, 255, 224) },
    ],
    [
      'an unchecked image type',
      { type: 'image', mediaType: 'image/heic', data: ascii('anything') },
    ],
    [
      'an https image',
      { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' },
    ],
    [
      'an http image of any type',
      { type: 'image', mediaType: 'image/*', url: 'http://example.com/a' },
    ],
    [
      'a base64 data: URL',
      {
        type: 'image',
        mediaType: 'image/png',
        url: `data:image/png;base64,${encodeBase64(png())}`,
      },
    ],
    [
      'a data: URL without a type',
      { type: 'image', mediaType: 'image/png', url: `data:;base64,${encodeBase64(png())}` },
    ],
    [
      'an image by ref',
      {
        type: 'image',
        mediaType: 'image/png',
        ref: { digest: DIGEST, size: 12, width: 640, height: 480 },
      },
    ],
    [
      'audio as base64',
      { type: 'audio', mediaType: 'audio/wav', data: encodeBase64(ascii('RIFF....WAVE')) },
    ],
    [
      'a PDF with a filename',
      { type: 'file', mediaType: 'application/pdf', filename: 'contract.pdf', data: PDF },
    ],
    [
      'a CSV with parameters',
      { type: 'file', mediaType: 'text/csv; charset=utf-8', data: ascii('a,b\n1,2\n') },
    ],
    ['an empty file', { type: 'file', mediaType: 'application/octet-stream', data: '' }],
    [
      'a file by ref',
      { type: 'file', mediaType: 'application/zip', ref: { digest: DIGEST, size: 0 } },
    ],
  ])('%s', (_, part) => {
    const content = [{ type: 'text', text: 'look:' }, part] as const;
    expect(checkContent(content)).toBe(content);
    expect(contentProblem(content)).toBeUndefined();
  });

  it('a string, an empty list, and fields set to undefined', () => {
    expect(checkContent('')).toBe('');
    expect(checkContent([])).toEqual([]);
    expect(checkContent([{ type: 'text', text: 'x', extra: undefined }])).toHaveLength(1);
  });

  it('an attachment of exactly the limit, and any size with an Infinity limit', () => {
    const part = { type: 'file', mediaType: 'application/octet-stream', data: new Uint8Array(10) };
    expect(checkContent([part], 'content', { maxAttachmentBytes: 10 })).toHaveLength(1);
    const big = { ...part, data: new Uint8Array(DEFAULT_MAX_ATTACHMENT_BYTES + 1) };
    expect(checkContent([big], 'c', { maxAttachmentBytes: Infinity })).toHaveLength(1);
  });
});

describe('checkContent refuses, naming the part and the rule', () => {
  it.each<[string, unknown, string, string | undefined, RegExp]>([
    [
      'an unknown part type',
      { type: 'video', data: '' },
      'part-type',
      'type',
      /unknown part type "video"; a part is one of text, image, audio, file/,
    ],
    ['a part without a type', { text: 'x' }, 'part-type', 'type', /unknown part type undefined/],
    [
      'a part that is not an object',
      'hello',
      'part',
      undefined,
      /a part must be an object with a type, not string/,
    ],
    ['null', null, 'part', undefined, /not null/],
    [
      'a field the part has not',
      { type: 'image', mimeType: 'image/png', data: png() },
      'part',
      'mimeType',
      /no field "mimeType" \(did you mean mediaType\?\)/,
    ],
    [
      'a filename on an image',
      { type: 'image', mediaType: 'image/png', filename: 'a.png', data: png() },
      'part',
      'filename',
      /an image part has no field "filename"/,
    ],
    [
      'text that is not a string',
      { type: 'text', text: 3 },
      'part',
      'text',
      /text must be a string, not number/,
    ],
    [
      'no mediaType',
      { type: 'image', data: png() },
      'media-type',
      'mediaType',
      /needs a mediaType \(e\.g\. image\/png\)/,
    ],
    [
      'a malformed mediaType',
      { type: 'file', mediaType: 'pdf', data: PDF },
      'media-type',
      'mediaType',
      /"pdf" is not a media type/,
    ],
    [
      'an image that says audio',
      { type: 'image', mediaType: 'audio/wav', data: png() },
      'media-type',
      'mediaType',
      /must be image\/…, not audio\/wav/,
    ],
    [
      'audio that says video',
      { type: 'audio', mediaType: 'video/mp4', url: 'https://x.test/a' },
      'media-type',
      'mediaType',
      /must be audio\/…/,
    ],
    [
      'a wildcard on inline data',
      { type: 'image', mediaType: 'image/*', data: png() },
      'media-type',
      'mediaType',
      /allowed for an http\(s\) url only/,
    ],
    [
      'PNG bytes that say JPEG',
      { type: 'image', mediaType: 'image/jpeg', data: png() },
      'signature',
      'data',
      /says image\/jpeg but the bytes do not start like one \(they look like image\/png\)/,
    ],
    [
      'JPEG bytes that say PNG, as image/jpg',
      { type: 'image', mediaType: 'image/png', data: Uint8Array.of(255, 216, 255) },
      'signature',
      'data',
      /look like image\/jpeg/,
    ],
    [
      'a GIF that is not',
      { type: 'image', mediaType: 'image/gif', data: ascii('GIF90a') },
      'signature',
      'data',
      /no known signature/,
    ],
    [
      'a WebP that is a WAV',
      { type: 'image', mediaType: 'image/webp', data: ascii('RIFF\0\0\0\0WAVE') },
      'signature',
      'data',
      /image\/webp/,
    ],
    [
      'no bytes for a PNG',
      { type: 'image', mediaType: 'image/png', data: '' },
      'signature',
      'data',
      /there are no bytes/,
    ],
    [
      'a PDF file that is text',
      { type: 'file', mediaType: 'application/pdf', data: encodeBase64(ascii('hello')) },
      'signature',
      'data',
      /says application\/pdf/,
    ],
    [
      'a data: URL of another type',
      {
        type: 'image',
        mediaType: 'image/png',
        url: `data:image/gif;base64,${encodeBase64(png())}`,
      },
      'media-type',
      'url',
      /names "image\/gif" but mediaType is image\/png/,
    ],
    [
      'a data: URL that is not base64',
      { type: 'image', mediaType: 'image/png', url: 'data:image/png,%89PNG' },
      'url',
      'url',
      /must be base64/,
    ],
    [
      'a data: URL with bad base64',
      { type: 'image', mediaType: 'image/png', url: 'data:image/png;base64,iVBO R' },
      'base64',
      'url',
      /invalid base64 character " " at 4/,
    ],
    [
      'a file: URL',
      { type: 'file', mediaType: 'text/plain', url: 'file:///etc/passwd' },
      'url',
      'url',
      /scheme "file:" is not allowed: only http: and https:/,
    ],
    [
      'an ftp: URL',
      { type: 'image', mediaType: 'image/png', url: 'ftp://example.com/a.png' },
      'url',
      'url',
      /"ftp:"/,
    ],
    [
      'a javascript: URL',
      { type: 'image', mediaType: 'image/png', url: 'javascript:alert(1)' },
      'url',
      'url',
      /"javascript:"/,
    ],
    [
      'a relative URL',
      { type: 'image', mediaType: 'image/png', url: '/images/a.png' },
      'url',
      'url',
      /is not an absolute URL/,
    ],
    [
      'a URL object',
      { type: 'image', mediaType: 'image/png', url: new URL('https://example.com') },
      'url',
      'url',
      /url must be a string/,
    ],
    [
      'bad base64',
      { type: 'audio', mediaType: 'audio/mpeg', data: 'SUQz-A==' },
      'base64',
      'data',
      /invalid base64 character "-" at 4 \(base64url/,
    ],
    [
      'base64 without padding',
      { type: 'audio', mediaType: 'audio/mpeg', data: 'SUQzBA' },
      'base64',
      'data',
      /multiple of 4/,
    ],
    [
      'no source',
      { type: 'file', mediaType: 'text/plain' },
      'source',
      undefined,
      /needs one of data \(bytes or base64\), url or ref/,
    ],
    [
      'two sources',
      { type: 'file', mediaType: 'text/plain', data: '', url: 'https://x.test' },
      'source',
      undefined,
      /exactly one of data, url and ref, not data and url/,
    ],
    [
      'data of another kind',
      { type: 'file', mediaType: 'text/plain', data: 42 },
      'part',
      'data',
      /Uint8Array or base64 text, not number/,
    ],
    [
      'an ArrayBuffer',
      { type: 'file', mediaType: 'text/plain', data: new ArrayBuffer(2) },
      'part',
      'data',
      /wrap it: new Uint8Array\(buffer\)/,
    ],
    [
      'a ref with a bad digest',
      { type: 'image', mediaType: 'image/png', ref: { digest: 'md5:ab', size: 1 } },
      'ref',
      'ref.digest',
      /"sha256:" and 64 lowercase hex/,
    ],
    [
      'a ref with a negative size',
      { type: 'image', mediaType: 'image/png', ref: { digest: DIGEST, size: -1 } },
      'ref',
      'ref.size',
      /whole number of bytes/,
    ],
    [
      'a ref with a zero width',
      { type: 'image', mediaType: 'image/png', ref: { digest: DIGEST, size: 1, width: 0 } },
      'ref',
      'ref.width',
      /pixels, 1 or more/,
    ],
    [
      'a ref with another field',
      { type: 'image', mediaType: 'image/png', ref: { digest: DIGEST, size: 1, bytes: [] } },
      'ref',
      'ref.bytes',
      /ref has no field "bytes"/,
    ],
    [
      'a ref that is a string',
      { type: 'image', mediaType: 'image/png', ref: DIGEST },
      'ref',
      'ref',
      /must be an object/,
    ],
    [
      'an empty filename',
      { type: 'file', mediaType: 'text/plain', filename: '', data: '' },
      'filename',
      'filename',
      /filename must not be empty/,
    ],
    [
      'a filename with a newline',
      { type: 'file', mediaType: 'text/plain', filename: 'a\nb.txt', data: '' },
      'filename',
      'filename',
      /control characters \(U\+000A at 1\)/,
    ],
    [
      'a filename too long',
      { type: 'file', mediaType: 'text/plain', filename: `${'a'.repeat(256)}`, data: '' },
      'filename',
      'filename',
      /at most 255/,
    ],
  ])('%s', (_, part, kind, field, message) => {
    const error = refuse(part);
    expect(error.argument).toBe('messages[2].content[1]');
    expect(error.message).toMatch(/^messages\[2\]\.content\[1\]/);
    expect(error.message).toMatch(message);
    expect(error.details).toMatchObject({ argument: 'messages[2].content[1]', index: 1, kind });
    expect(error.details.field).toBe(field);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(SkeinError.isRetryable(error)).toBe(false);
  });

  it('names the part type in the message', () => {
    const error = refuse({ type: 'image', mediaType: 'image/jpeg', data: png() });
    expect(error.message).toMatch(/^messages\[2\]\.content\[1\] \(image part\): mediaType says/);
    expect(error.details.partType).toBe('image');
  });

  it.each([
    ['bytes', new Uint8Array(11)],
    ['base64', encodeBase64(new Uint8Array(11))],
    ['a data: URL', `data:application/octet-stream;base64,${encodeBase64(new Uint8Array(11))}`],
  ])('an attachment over the limit, as %s', (_, data) => {
    const part =
      typeof data === 'string' && data.startsWith('data:')
        ? { type: 'file', mediaType: 'application/octet-stream', url: data }
        : { type: 'file', mediaType: 'application/octet-stream', data };
    const error = refuse(part, { maxAttachmentBytes: 10 });
    expect(error.details).toMatchObject({ kind: 'size', index: 1 });
    expect(error.message).toMatch(/holds 11 bytes, over the limit of 10/);
  });

  it('a ref whose size is over the limit', () => {
    const error = refuse(
      { type: 'file', mediaType: 'application/pdf', ref: { digest: DIGEST, size: 11 } },
      { maxAttachmentBytes: 10 },
    );
    expect(error.details).toMatchObject({ kind: 'size', field: 'ref.size' });
  });

  it('by default, an attachment over 20 MiB; measured before its base64 is read', () => {
    expect(DEFAULT_MAX_ATTACHMENT_BYTES).toBe(20 * 1024 * 1024);
    const bytes = new Uint8Array(DEFAULT_MAX_ATTACHMENT_BYTES + 1);
    const error = refuse({ type: 'file', mediaType: 'application/octet-stream', data: bytes });
    expect(error.message).toMatch(/holds 20971521 bytes, over the limit of 20971520 \(20 MiB/);
    // Not base64 at all, but too long to be worth reading: the size is what is reported.
    const text = '!'.repeat(((DEFAULT_MAX_ATTACHMENT_BYTES + 3) / 3) * 4);
    expect(refuse({ type: 'file', mediaType: 'text/plain', data: text }).details.kind).toBe('size');
  });

  it('content that is neither a string nor a list, naming the content', () => {
    for (const value of [42, null, undefined, { type: 'text', text: 'x' }]) {
      const error = refusal(value, 'messages[0].content');
      expect(error).toMatchObject({
        argument: 'messages[0].content',
        details: { kind: 'content' },
      });
    }
  });

  it('a hole in the list', () => {
    const sparse: unknown[] = [{ type: 'text', text: 'a' }];
    sparse[2] = { type: 'text', text: 'b' };
    expect(refusal(sparse).argument).toBe('content[1]');
  });

  it('a limit that is not a number of bytes, before looking at the content', () => {
    for (const maxAttachmentBytes of [-1, 1.5, Number.NaN, '10' as unknown as number]) {
      const error = refusal('text', 'content', { maxAttachmentBytes });
      expect(error.argument).toBe('options.maxAttachmentBytes');
    }
  });
});

// Valid parts of every kind, for the properties.
const pngBytes = fc.uint8Array({ maxLength: 48 }).map((tail) => png([...tail]));
const validPart: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.string().map((text) => ({ type: 'text' as const, text })),
  pngBytes.map((data) => ({ type: 'image' as const, mediaType: 'image/png', data })),
  pngBytes.map((b) => ({ type: 'image' as const, mediaType: 'image/png', data: encodeBase64(b) })),
  fc.webUrl().map((url) => ({ type: 'image' as const, mediaType: 'image/*', url })),
  fc
    .uint8Array({ maxLength: 48 })
    .map((b) => ({ type: 'audio' as const, mediaType: 'audio/wav', data: encodeBase64(b) })),
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constantFrom('text/csv', 'application/octet-stream', 'application/json'),
    filename: fc.constantFrom('a.csv', 'data.bin', 'résumé.json'),
    data: fc.uint8Array({ maxLength: 48 }),
  }),
  fc.record({
    type: fc.constant('file' as const),
    mediaType: fc.constant('application/pdf'),
    ref: fc.record(
      { digest: fc.constant(DIGEST), size: fc.nat({ max: 1024 }) },
      { requiredKeys: ['digest', 'size'] },
    ),
  }),
);

describe('checkContent, properties', () => {
  it('takes any string unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(checkContent(s)).toBe(s);
      }),
    );
  });

  it('takes any list of valid parts, as the same value', () => {
    fc.assert(
      fc.property(fc.array(validPart, { maxLength: 6 }), (parts) => {
        expect(checkContent(parts, 'messages[0].content')).toBe(parts);
      }),
    );
  });

  it('a PNG header with any tail is image/png, never image/jpeg, however it is carried', () => {
    fc.assert(
      fc.property(
        pngBytes,
        fc.constantFrom('bytes', 'base64', 'data-url'),
        fc.constantFrom('image', 'file'),
        (bytes, carried, type) => {
          const part = (mediaType: string) => ({
            type,
            mediaType,
            ...(carried === 'bytes'
              ? { data: bytes }
              : carried === 'base64'
                ? { data: encodeBase64(bytes) }
                : { url: `data:${mediaType};base64,${encodeBase64(bytes)}` }),
          });
          expect(contentProblem([part('image/png')])).toBeUndefined();
          expect(contentProblem([part('image/jpeg')])).toMatchObject({
            path: 'content[0]',
            kind: 'signature',
            problem: expect.stringContaining('they look like image/png'),
          });
        },
      ),
    );
  });

  it('names the index of the one bad part among valid ones', () => {
    fc.assert(
      fc.property(
        fc.array(validPart, { maxLength: 5 }),
        fc.nat(),
        fc.string(),
        (parts, at, type) => {
          fc.pre(!['text', 'image', 'audio', 'file'].includes(type));
          const index = at % (parts.length + 1);
          const content = [...parts.slice(0, index), { type }, ...parts.slice(index)];
          const error = refusal(content, 'messages[3].content');
          expect(error.argument).toBe(`messages[3].content[${index}]`);
          expect(error.details).toMatchObject({ index, kind: 'part-type' });
        },
      ),
    );
  });

  it('never throws anything but InvalidArgumentError, and agrees with contentProblem', () => {
    const partish = fc.record(
      {
        type: fc.constantFrom('text', 'image', 'audio', 'file', 'video', ''),
        text: fc.anything(),
        mediaType: fc.oneof(
          fc.constantFrom('image/png', 'image/*', 'audio/wav', 'application/pdf'),
          fc.string(),
        ),
        data: fc.oneof(fc.string(), fc.base64String(), pngBytes, fc.anything()),
        url: fc.oneof(fc.webUrl(), fc.string(), fc.anything()),
        ref: fc.anything(),
        filename: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.array(fc.oneof(partish, fc.anything()))), (value) => {
        let thrown: unknown;
        try {
          expect(checkContent(value)).toBe(value);
        } catch (error) {
          thrown = error;
        }
        if (thrown === undefined) expect(contentProblem(value)).toBeUndefined();
        else {
          expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
          expect(contentProblem(value)).toMatchObject({
            path: (thrown as InvalidArgumentError).argument,
          });
        }
      }),
    );
  });
});
