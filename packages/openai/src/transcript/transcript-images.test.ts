import { decodeBase64, type LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { digestOf, MP3, PDF_BASE64, PNG, PNG_BASE64 } from '../client/parts/test-parts.js';
import { exportTranscript } from './export-transcript.js';
import { restoreTranscript } from './restore-transcript.js';

// A second image, so a mix-up between two attachments would show.
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const JPEG_REF = { digest: digestOf(JPEG), size: JPEG.length };

function caught(run: () => unknown): Error & Record<string, unknown> {
  try {
    run();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a throw');
}

const conversation: LLMMessage[] = [
  { role: 'system', content: 'Describe pictures.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Compare these: ' },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
      { type: 'image', mediaType: 'image/png; name=x', url: `data:image/png;base64,${PNG_BASE64}` },
      { type: 'image', mediaType: 'image/*', url: 'https://example.test/cat.jpg' },
      { type: 'image', mediaType: 'image/jpeg', ref: JPEG_REF },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Five ' },
      { type: 'text', text: 'cats.' },
    ],
  },
];

describe("exportTranscript with media: 'user-images'", () => {
  it('writes user images as image_url parts: inline and ref as data: URLs, http(s) as is', () => {
    const transcript = exportTranscript(conversation, [], {
      media: 'user-images',
      attachments: new Map([[JPEG_REF.digest, JPEG]]),
    });
    const pngUrl = `data:image/png;base64,${PNG_BASE64}`;
    expect(transcript.messages).toEqual([
      { role: 'system', content: 'Describe pictures.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these: ' },
          { type: 'image_url', image_url: { url: pngUrl } },
          { type: 'image_url', image_url: { url: pngUrl } },
          { type: 'image_url', image_url: { url: pngUrl } },
          { type: 'image_url', image_url: { url: 'https://example.test/cat.jpg' } },
          {
            type: 'image_url',
            image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,/) },
          },
        ],
      },
      { role: 'assistant', content: 'Five cats.' },
    ]);
  });

  it('round-trips through JSON: the data URL decodes to the bytes, and restore gives them inline', () => {
    const transcript = exportTranscript(conversation, [], {
      media: 'user-images',
      attachments: new Map([[JPEG_REF.digest, JPEG]]),
    });
    const line = JSON.parse(JSON.stringify({ messages: transcript.messages }));
    const url: string = line.messages[1].content[5].image_url.url;
    expect(decodeBase64(url.slice(url.indexOf(',') + 1))).toEqual(JPEG);
    const restored = restoreTranscript(transcript).messages;
    expect(restored[1]!.content).toEqual([
      { type: 'text', text: 'Compare these: ' },
      { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
      { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
      { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
      { type: 'image', mediaType: 'image/*', url: 'https://example.test/cat.jpg' },
      { type: 'image', mediaType: 'image/jpeg', data: expect.any(String) },
    ]);
    expect(restored[2]!.content).toBe('Five cats.');
  });

  it('refuses a ref whose bytes were not given, or not as long as the ref says', () => {
    const missing = caught(() => exportTranscript(conversation, [], { media: 'user-images' }));
    expect(missing).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'messages[1].content[5]',
      details: { messageIndex: 1, index: 5, partType: 'image', kind: 'ref' },
    });
    expect(missing.message).toContain(JPEG_REF.digest);
    const short = caught(() =>
      exportTranscript(conversation, [], {
        media: 'user-images',
        attachments: new Map([[JPEG_REF.digest, JPEG.subarray(1)]]),
      }),
    );
    expect(short).toMatchObject({ argument: 'messages[1].content[5]', details: { kind: 'ref' } });
  });

  it.each([
    [
      'audio in a user message',
      { role: 'user', content: [{ type: 'audio', mediaType: 'audio/mpeg', data: MP3 }] },
      'part-type',
      'images only',
    ],
    [
      'a PDF in a user message',
      { role: 'user', content: [{ type: 'file', mediaType: 'application/pdf', data: PDF_BASE64 }] },
      'part-type',
      'images only',
    ],
    [
      'an image in an assistant message',
      { role: 'assistant', content: [{ type: 'image', mediaType: 'image/png', data: PNG }] },
      'role',
      'user messages only',
    ],
    [
      'an image in a tool message',
      {
        role: 'tool',
        toolCallId: 'c1',
        content: [
          { type: 'text', text: 'chart:' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
      },
      'role',
      'not in a tool message',
    ],
  ] as [string, LLMMessage, string, string][])(
    'refuses %s, naming message and part',
    (_, message, kind, why) => {
      const messages: LLMMessage[] = [{ role: 'user', content: 'hi' }, message];
      const error = caught(() => exportTranscript(messages, [], { media: 'user-images' }));
      const part = (message.content as readonly unknown[]).length - 1;
      expect(error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: `messages[1].content[${part}]`,
        details: { messageIndex: 1, index: part, kind },
      });
      expect(error.message).toContain(why);
    },
  );

  it('still refuses parts by default, pointing at the option', () => {
    const error = caught(() => exportTranscript(conversation, []));
    expect(error).toMatchObject({ argument: 'messages[1].content' });
    expect(error.message).toContain("media: 'user-images'");
  });
});

describe('restoreTranscript of user parts', () => {
  it.each([
    [[{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }], 'content[0].type'],
    [[{ type: 'image_url', image_url: {} }], 'content[0].image_url.url'],
    [[{ type: 'image_url', image_url: { url: 'data:image/png,abc' } }], 'content[0].image_url.url'],
  ])('refuses %j, naming the path', (content, path) => {
    const error = caught(() =>
      restoreTranscript({
        messages: [{ role: 'user', content } as never],
        tools: [],
        tool_name_mapping: {},
      }),
    );
    expect(error).toMatchObject({ code: 'INVALID_TRANSCRIPT', path: `messages[0].${path}` });
  });
});
