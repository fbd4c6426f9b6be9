import type { MessageContent } from '@skein/spec';
import type { FileUIPart, TextUIPart, UIMessageChunk } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { base64Of, digestOf, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import type { UIFileChunk, UIFilePart, UITextPart } from './ai-sdk-shapes.js';
import { toUIFileChunk, toUIFileParts, toUIMessageParts } from './to-ui-parts.js';

const png = pngBytes(7, 7);

describe('toUIMessageParts', () => {
  it('produces parts and chunks the ai package takes', () => {
    expectTypeOf<UITextPart>().toExtend<TextUIPart>();
    expectTypeOf<UIFilePart>().toExtend<FileUIPart>();
    expectTypeOf<UIFileChunk>().toExtend<UIMessageChunk>();
  });

  it('maps text and media in order, bytes as data: URLs, http(s) urls as they are', async () => {
    const content: MessageContent = [
      { type: 'text', text: 'made this' },
      { type: 'image', mediaType: 'image/png', data: png },
      { type: 'file', mediaType: 'application/pdf', filename: 'r.pdf', data: base64Of(PDF_BYTES) },
      { type: 'audio', mediaType: 'audio/wav', url: 'https://example.com/a.wav' },
    ];
    expect(await toUIMessageParts(content, 'content')).toEqual([
      { type: 'text', text: 'made this' },
      { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${base64Of(png)}` },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'r.pdf',
        url: `data:application/pdf;base64,${base64Of(PDF_BYTES)}`,
      },
      { type: 'file', mediaType: 'audio/wav', url: 'https://example.com/a.wav' },
    ]);
  });

  it('gives a string its one text part, and the empty string none', async () => {
    expect(await toUIMessageParts('hi', 'content')).toEqual([{ type: 'text', text: 'hi' }]);
    expect(await toUIMessageParts('', 'content')).toEqual([]);
  });
});

describe('toUIFileParts', () => {
  it('keeps only the media, reading refs through resolveRef', async () => {
    const ref = { digest: await digestOf(png), size: png.length };
    const files = await toUIFileParts(
      [
        { type: 'text', text: 'x' },
        { type: 'image', mediaType: 'image/png', ref },
      ],
      'messages[0].content',
      { resolveRef: async () => png },
    );
    expect(files).toEqual([
      { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${base64Of(png)}` },
    ]);
  });

  it('refuses a ref without resolveRef, naming the part', async () => {
    await expect(
      toUIFileParts(
        [{ type: 'image', mediaType: 'image/png', ref: { digest: await digestOf(png), size: 10 } }],
        'messages[0].content',
      ),
    ).rejects.toMatchObject({ code: 'REF_UNRESOLVED', part: 'messages[0].content[0]' });
  });
});

describe('toUIFileChunk', () => {
  it('is the file chunk of the UI message stream, without a filename', async () => {
    expect(
      await toUIFileChunk(
        {
          type: 'file',
          mediaType: 'text/csv',
          filename: 'a.csv',
          data: new Uint8Array([97, 44, 98]),
        },
        'tool.parts[0]',
      ),
    ).toEqual({ type: 'file', mediaType: 'text/csv', url: 'data:text/csv;base64,YSxi' });
  });
});
