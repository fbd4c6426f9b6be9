import {
  type ContentPart,
  encodeBase64,
  InvalidArgumentError,
  type MessageContent,
} from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Of, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import { fromUIMessageParts } from './from-ui-message-parts.js';
import { toUIMessageParts } from './to-ui-parts.js';

const AT = 'messages[2].parts';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('fromUIMessageParts', () => {
  it('keeps a text-only message a plain string, skipping parts that are not content', () => {
    const parts = [
      { type: 'step-start' },
      { type: 'text', text: 'hello ' },
      { type: 'reasoning', text: 'ignored' },
      { type: 'text', text: 'world' },
    ];
    expect(fromUIMessageParts(parts, AT)).toBe('hello world');
    expect(fromUIMessageParts([], AT)).toBe('');
  });

  it('decodes a data: URL to base64 data and keeps an http(s) url, typed by media type', () => {
    const png = pngBytes(1, 2, 3);
    const parts = [
      { type: 'text', text: 'look' },
      {
        type: 'file',
        mediaType: 'image/png',
        filename: 'cat.png',
        url: `data:image/png;base64,${base64Of(png)}`,
        providerMetadata: { x: {} },
      },
      { type: 'file', mediaType: 'audio/mpeg', url: 'https://example.com/a.mp3' },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'spec.pdf',
        url: `data:application/pdf;base64,${base64Of(PDF_BYTES)}`,
      },
    ];
    expect(fromUIMessageParts(parts, AT)).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', mediaType: 'image/png', data: base64Of(png) },
      { type: 'audio', mediaType: 'audio/mpeg', url: 'https://example.com/a.mp3' },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'spec.pdf',
        data: base64Of(PDF_BYTES),
      },
    ]);
  });

  it('names a bad part as the client sent it, counting the parts it skipped', () => {
    const error = thrown(() =>
      fromUIMessageParts(
        [
          { type: 'step-start' },
          { type: 'text', text: 'x' },
          { type: 'file', mediaType: 'image/png', url: 'blob:https://example.com/1' },
        ],
        AT,
      ),
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      argument: 'messages[2].parts[2]',
      details: { kind: 'url', index: 2, partType: 'image', field: 'url' },
    });
    expect((error as Error).message).toMatch(/^messages\[2\]\.parts\[2\] \(image part\): /);
  });

  it('refuses a data: URL whose media type is not the declared one', () => {
    const error = thrown(() =>
      fromUIMessageParts(
        [
          {
            type: 'file',
            mediaType: 'image/png',
            url: `data:image/gif;base64,${base64Of(pngBytes())}`,
          },
        ],
        AT,
      ),
    );
    expect(error).toMatchObject({
      argument: 'messages[2].parts[0]',
      details: { kind: 'media-type' },
    });
  });

  it('holds attachments to maxAttachmentBytes', () => {
    const parts = [{ type: 'file', mediaType: 'text/plain', url: 'data:text/plain;base64,AAAA' }];
    expect(thrown(() => fromUIMessageParts(parts, AT, { maxAttachmentBytes: 2 }))).toMatchObject({
      details: { kind: 'size' },
    });
  });
});

// Valid content in its canonical form: images and audio in their own part types (a `file` part
// with an image type comes back an image part, and images have no filename).
const bytes = fc.uint8Array({ maxLength: 40 });
const source = (inline: fc.Arbitrary<Uint8Array>) =>
  fc.oneof(
    inline.map((data) => ({ data })),
    inline.map((data) => ({ data: encodeBase64(data) })),
    fc.constantFrom('https://example.com/a', 'http://example.org/x?y=1#z').map((url) => ({ url })),
  );
const part: fc.Arbitrary<ContentPart> = fc.oneof(
  fc.string().map((text) => ({ type: 'text' as const, text })),
  source(bytes.map((rest) => pngBytes(...rest))).map(
    (s) => ({ type: 'image', mediaType: 'image/png', ...s }) as ContentPart,
  ),
  fc
    .tuple(fc.constantFrom('image/svg+xml', 'audio/wav', 'audio/ogg'), source(bytes))
    .map(
      ([mediaType, s]) =>
        ({ type: mediaType.slice(0, 5) as 'image' | 'audio', mediaType, ...s }) as ContentPart,
    ),
  fc
    .tuple(
      fc.constantFrom('text/csv', 'application/octet-stream', 'application/json'),
      fc.option(fc.stringMatching(/^[\w.-]{1,20}$/), { nil: undefined }),
      source(bytes),
    )
    .map(
      ([mediaType, filename, s]) =>
        ({
          type: 'file',
          mediaType,
          ...(filename === undefined ? {} : { filename }),
          ...s,
        }) as ContentPart,
    ),
);

/** What a round trip may change: bytes become base64, text-only content a string. */
function canonical(content: readonly ContentPart[]): MessageContent {
  if (content.every((p) => p.type === 'text')) return content.map((p) => p.text).join('');
  return content.map((p) =>
    p.type !== 'text' && p.data instanceof Uint8Array
      ? ({ ...p, data: encodeBase64(p.data) } as ContentPart)
      : p,
  );
}

describe('Skein parts → UI parts → Skein parts', () => {
  it('gives back the content for any valid list of parts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 6 }), async (content) => {
        const ui = await toUIMessageParts(content, 'content');
        expect(fromUIMessageParts(ui, AT)).toEqual(canonical(content));
      }),
    );
  });
});
