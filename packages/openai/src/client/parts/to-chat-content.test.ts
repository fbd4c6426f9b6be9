import { type ContentPart, decodeBase64, encodeBase64, InvalidArgumentError } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { bytes, validPart } from './part-arbitraries.js';
import {
  DIGEST,
  digestOf,
  MP3,
  PDF,
  PDF_BASE64,
  PNG,
  PNG_BASE64,
  rejection,
  WAV,
} from './test-parts.js';
import { toChatContent } from './to-chat-content.js';

const AT = 'messages[2].content';

describe('toChatContent', () => {
  it('keeps a string a string', async () => {
    expect(await toChatContent('hello', AT)).toBe('hello');
  });

  it('sends an empty list of parts as empty text, which the API accepts', async () => {
    expect(await toChatContent([], AT)).toBe('');
  });

  it('maps text and images in order, inline images as data URLs', async () => {
    const content: ContentPart[] = [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
      { type: 'image', mediaType: 'image/png', url: `data:image/png;base64,${PNG_BASE64}` },
      { type: 'image', mediaType: 'image/*', url: 'https://example.com/cat.jpg' },
    ];
    const url = `data:image/png;base64,${PNG_BASE64}`;
    expect(await toChatContent(content, AT)).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url } },
      { type: 'image_url', image_url: { url } },
      { type: 'image_url', image_url: { url } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
    ]);
  });

  it('names the type in a data URL that had none, and drops media type parameters', async () => {
    const content: ContentPart[] = [
      { type: 'image', mediaType: 'IMAGE/PNG; q=1', url: `data:;base64,${PNG_BASE64}` },
    ];
    expect(await toChatContent(content, AT)).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
    ]);
  });

  it.each([
    ['audio/wav', 'wav', WAV],
    ['audio/x-wav', 'wav', WAV],
    ['audio/mpeg', 'mp3', MP3],
    ['audio/mp3', 'mp3', MP3],
  ] as const)(
    'sends %s audio as input_audio of format %s, in base64',
    async (mediaType, format, bytes) => {
      expect(await toChatContent([{ type: 'audio', mediaType, data: bytes }], AT)).toEqual([
        { type: 'input_audio', input_audio: { data: encodeBase64(bytes), format } },
      ]);
    },
  );

  it('refuses audio other than wav or mp3, naming the part', async () => {
    const error = await rejection(
      toChatContent(
        [
          { type: 'text', text: 'listen' },
          { type: 'audio', mediaType: 'audio/ogg', data: WAV },
        ],
        AT,
      ),
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'messages[2].content[1]',
      details: { kind: 'media-type', index: 1, partType: 'audio', field: 'mediaType' },
    });
    expect(error.message).toMatch(
      /^messages\[2\]\.content\[1\] \(audio part\): .*wav or mp3.*audio\/ogg/,
    );
  });

  it('sends a file as a data URL with its name, or a name made from its place', async () => {
    const content: ContentPart[] = [
      { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', data: PDF },
      { type: 'file', mediaType: 'application/pdf', data: PDF_BASE64 },
      { type: 'file', mediaType: 'application/x-thing', data: 'AAEC' },
    ];
    expect(await toChatContent(content, AT)).toEqual([
      {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: 'report.pdf' },
      },
      {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: 'part-1.pdf' },
      },
      {
        type: 'file',
        file: { file_data: 'data:application/x-thing;base64,AAEC', filename: 'part-2' },
      },
    ]);
  });

  it.each([
    ['audio', { type: 'audio', mediaType: 'audio/wav', url: 'https://example.com/a.wav' }],
    ['file', { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' }],
  ] as const)('refuses %s by URL with no fetcher: the provider needs bytes', async (_, part) => {
    const error = await rejection(toChatContent([{ type: 'text', text: 'x' }, part], AT));
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'messages[2].content[1]',
      details: { kind: 'needs-bytes', field: 'url', partType: part.type },
    });
    expect(error.message).toMatch(/only as bytes.*no fetcher is set/);
  });

  it('fetches audio and files by URL through the fetcher, never images', async () => {
    const fetcher = vi.fn(async (url: string) =>
      url.endsWith('.pdf')
        ? { bytes: PDF, mediaType: 'application/pdf' }
        : { bytes: MP3, mediaType: 'audio/mpeg' },
    );
    const content: ContentPart[] = [
      { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
      { type: 'audio', mediaType: 'audio/*', url: 'https://example.com/a' },
      { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
    ];
    expect(await toChatContent(content, AT, { fetcher })).toEqual([
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'input_audio', input_audio: { data: encodeBase64(MP3), format: 'mp3' } },
      {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: 'part-2.pdf' },
      },
    ]);
    expect(fetcher.mock.calls.map(([url]) => url)).toEqual([
      'https://example.com/a',
      'https://example.com/a.pdf',
    ]);
  });

  it.each([
    ['text/html', 'fetcher', /audio part's mediaType must be audio\/…, not text\/html/],
    ['audio/ogg', 'media-type', /wav or mp3 only .*not audio\/ogg/],
  ])('refuses fetched audio/* that turns out to be %s', async (mediaType, kind, message) => {
    const fetcher = async () => ({ bytes: WAV, mediaType });
    const error = await rejection(
      toChatContent([{ type: 'audio', mediaType: 'audio/*', url: 'https://x.test/a' }], AT, {
        fetcher,
      }),
    );
    expect(error).toMatchObject({ argument: 'messages[2].content[0]', details: { kind } });
    expect(error.message).toMatch(message);
  });

  it('refuses a fetcher answer that is not { bytes, mediaType }', async () => {
    const fetcher = async () => ({ bytes: 'AAAA', mediaType: 'audio/wav' }) as never;
    const error = await rejection(
      toChatContent([{ type: 'audio', mediaType: 'audio/wav', url: 'https://x.test/a' }], AT, {
        fetcher,
      }),
    );
    expect(error).toMatchObject({
      argument: 'messages[2].content[0]',
      details: { kind: 'fetcher' },
    });
  });

  it('checks fetched bytes as inline ones: an error page is not a PDF', async () => {
    const html = new TextEncoder().encode('<html>404</html>');
    const fetcher = async () => ({ bytes: html, mediaType: 'text/html' });
    const error = await rejection(
      toChatContent(
        [{ type: 'file', mediaType: 'application/pdf', url: 'https://x.test/a.pdf' }],
        AT,
        {
          fetcher,
        },
      ),
    );
    expect(error).toMatchObject({
      argument: 'messages[2].content[0]',
      details: { kind: 'fetcher' },
    });
    expect(error.message).toMatch(
      /fetcher gave: mediaType says application\/pdf but the bytes do not start like one/,
    );
  });

  it('refuses a fetched media type that is not one', async () => {
    const fetcher = async () => ({ bytes: WAV, mediaType: 'nonsense' });
    const error = await rejection(
      toChatContent([{ type: 'file', mediaType: 'application/*', url: 'https://x.test/a' }], AT, {
        fetcher,
      }),
    );
    expect(error).toMatchObject({
      argument: 'messages[2].content[0]',
      details: { kind: 'fetcher' },
    });
  });

  it('refuses a part by ref with no resolver, naming the part', async () => {
    const error = await rejection(
      toChatContent(
        [{ type: 'image', mediaType: 'image/png', ref: { digest: DIGEST, size: PNG.length } }],
        AT,
      ),
    );
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'messages[2].content[0]',
      details: { kind: 'ref', field: 'ref', partType: 'image' },
    });
    expect(error.message).toContain(DIGEST);
  });

  it('reads a part by ref through resolveRef', async () => {
    const ref = { digest: digestOf(PNG), size: PNG.length };
    const resolveRef = vi.fn(async () => PNG);
    expect(
      await toChatContent([{ type: 'image', mediaType: 'image/png', ref }], AT, { resolveRef }),
    ).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }]);
    expect(resolveRef).toHaveBeenCalledWith(ref);
  });

  it.each([
    ['of another size', { digest: digestOf(PNG), size: PNG.length }, PDF, /answered \d+ bytes/],
    [
      'of another digest',
      { digest: DIGEST, size: PNG.length },
      PNG,
      /digest is sha256:[0-9a-f]{64}, not/,
    ],
    [
      'that are not what mediaType says',
      { digest: digestOf(new Uint8Array(11)), size: 11 },
      new Uint8Array(11),
      /resolveRef gave: mediaType says image\/png but the bytes/,
    ],
  ])('refuses resolved bytes %s, naming the part', async (_, ref, bytes, message) => {
    const error = await rejection(
      toChatContent(
        [
          { type: 'text', text: 'x' },
          { type: 'image', mediaType: 'image/png', ref },
        ],
        AT,
        { resolveRef: async () => bytes },
      ),
    );
    expect(error).toMatchObject({ argument: 'messages[2].content[1]', details: { kind: 'ref' } });
    expect(error.message).toMatch(message);
  });

  it('refuses content checkContent refuses, with its error', async () => {
    const error = await rejection(
      toChatContent([{ type: 'image', mediaType: 'image/png', data: 'not base64!' }], AT),
    );
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'messages[2].content[0]',
      details: { kind: 'base64' },
    });
  });

  it('takes attachments over the 20 MiB default: the app chose its limit upstream', async () => {
    const big = 'AAAA'.repeat((21 * 1024 * 1024) / 3);
    expect(await toChatContent([{ type: 'audio', mediaType: 'audio/wav', data: big }], AT)).toEqual(
      [{ type: 'input_audio', input_audio: { data: big, format: 'wav' } }],
    );
  });
});

/** The bytes a part held, as the wire sent them (undefined for an image by URL). */
function sentBytes(part: Record<string, unknown>): Uint8Array | undefined {
  const url =
    (part.image_url as { url?: string } | undefined)?.url ??
    (part.file as { file_data?: string } | undefined)?.file_data;
  if (url !== undefined)
    return url.startsWith('data:') ? decodeBase64(url.slice(url.indexOf(',') + 1)) : undefined;
  const audio = part.input_audio as { data: string } | undefined;
  return audio && decodeBase64(audio.data);
}

function heldBytes(part: ContentPart): Uint8Array | undefined {
  if (part.type === 'text') return undefined;
  if (part.url !== undefined)
    return part.url.startsWith('data:')
      ? decodeBase64(part.url.slice(part.url.indexOf(',') + 1))
      : undefined;
  return typeof part.data === 'string' ? decodeBase64(part.data) : part.data;
}

describe('toChatContent, properties', () => {
  const WIRE_TYPE = { text: 'text', image: 'image_url', audio: 'input_audio', file: 'file' };

  it('maps every valid part list one part for one, in order, with the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(validPart, { minLength: 1, maxLength: 6 }), async (parts) => {
        const sent = (await toChatContent(parts, AT)) as unknown as Record<string, unknown>[];
        expect(sent.map((p) => p.type)).toEqual(parts.map((p) => WIRE_TYPE[p.type]));
        for (const [i, part] of parts.entries()) {
          if (part.type === 'text') expect(sent[i]).toEqual({ type: 'text', text: part.text });
          else expect(sentBytes(sent[i]!)).toEqual(heldBytes(part));
        }
      }),
    );
  });

  it('round-trips a base64 data URL: bytes in, the same data URL out', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (b) => {
        const data = Uint8Array.from([...PNG, ...b]);
        const url = `data:image/png;base64,${encodeBase64(data)}`;
        const fromBytes = await toChatContent(
          [{ type: 'image', mediaType: 'image/png', data }],
          AT,
        );
        const fromUrl = await toChatContent([{ type: 'image', mediaType: 'image/png', url }], AT);
        expect(fromBytes).toEqual([{ type: 'image_url', image_url: { url } }]);
        expect(fromUrl).toEqual(fromBytes);
      }),
    );
  });
});
