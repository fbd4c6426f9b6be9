import { createHash } from 'node:crypto';
import { decodeBase64, encodeBase64, type LLMMessage, type MediaPart } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachmentDigest, extractAttachments } from './attachments.js';

// A PNG's first bytes: the signature and an IHDR chunk stating 640x480.
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2,
  0x80, 0, 0, 1, 0xe0, 8, 6, 0, 0, 0,
]);
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj');
const sha = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const user = (content: LLMMessage['content']): LLMMessage => ({ role: 'user', content });

describe('extractAttachments', () => {
  it('swaps inline media for refs by digest, with an image size, and lists each once', () => {
    const messages = [
      user('plain text'),
      user([
        { type: 'text', text: 'look' },
        { type: 'image', mediaType: 'image/png', data: encodeBase64(PNG) },
        { type: 'file', mediaType: 'application/pdf', filename: 'a.pdf', data: PDF },
      ]),
      user([
        {
          type: 'image',
          mediaType: 'image/png',
          url: `data:image/png;base64,${encodeBase64(PNG)}`,
        },
      ]),
      user([{ type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' }]),
    ];
    const { messages: out, attachments, uses } = extractAttachments(messages, 10);
    expect(out[0]).toBe(messages[0]);
    expect(out[3]).toBe(messages[3]);
    expect(out[1]!.content).toEqual([
      { type: 'text', text: 'look' },
      {
        type: 'image',
        mediaType: 'image/png',
        ref: { digest: sha(PNG), size: PNG.length, width: 640, height: 480 },
      },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'a.pdf',
        ref: { digest: sha(PDF), size: PDF.length },
      },
    ]);
    expect(out[2]!.content).toEqual([(out[1]!.content as MediaPart[])[1]]);
    expect(attachments.map((a) => [a.digest, a.mediaType, [...a.bytes]])).toEqual([
      [sha(PNG), 'image/png', [...PNG]],
      [sha(PDF), 'application/pdf', [...PDF]],
    ]);
    expect(uses).toEqual([
      { digest: sha(PNG), position: 11 },
      { digest: sha(PDF), position: 11 },
    ]);
    expect(Object.isFrozen(out[1]!.content)).toBe(true);
  });

  it('counts a part already by ref as a use, and writes no bytes for it', () => {
    const ref = { digest: sha(PDF), size: PDF.length };
    const result = extractAttachments(
      [user([{ type: 'file', mediaType: 'application/pdf', ref }])],
      0,
    );
    expect(result.attachments).toEqual([]);
    expect(result.uses).toEqual([{ digest: ref.digest, position: 0 }]);
  });

  it('refuses base64 that does not decode, naming the part', () => {
    expect(() =>
      extractAttachments(
        [user('x'), user([{ type: 'audio', mediaType: 'audio/wav', data: 'QQ' }])],
        3,
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        argument: 'checkpoint.conversation.messages[1].content[0].data',
      }),
    );
  });

  it('keeps every byte: each ref names bytes listed once whose digest and size it states', () => {
    const bytes = fc.oneof(fc.constant(PNG), fc.constant(PDF), fc.uint8Array({ maxLength: 40 }));
    const part = fc.oneof(
      fc.string().map((text) => ({ type: 'text' as const, text })),
      fc.tuple(bytes, fc.boolean()).map(([b, asText]) => ({
        type: 'file' as const,
        mediaType: 'application/octet-stream',
        data: asText ? encodeBase64(b) : b,
      })),
    );
    const message = fc.oneof(
      fc.string().map((s) => user(s)),
      fc.array(part, { maxLength: 4 }).map(user),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), fc.nat(100), (messages, from) => {
        const result = extractAttachments(messages, from);
        const stored = new Map(result.attachments.map((a) => [a.digest, a.bytes]));
        expect(stored.size).toBe(result.attachments.length);
        const firstUse = new Map<string, number>();
        result.messages.forEach((message, i) => {
          const before = messages[i]!.content;
          if (typeof before === 'string') {
            expect(message).toBe(messages[i]);
            return;
          }
          (message.content as MediaPart[]).forEach((after, j) => {
            const original = before[j]!;
            if (original.type === 'text') {
              expect(after).toEqual(original);
              return;
            }
            const data = original.data!;
            const sent = typeof data === 'string' ? decodeBase64(data) : data;
            expect(after.ref!.digest).toBe(attachmentDigest(sent));
            expect(after.ref!.size).toBe(sent.length);
            expect([...stored.get(after.ref!.digest)!]).toEqual([...sent]);
            if (!firstUse.has(after.ref!.digest)) firstUse.set(after.ref!.digest, from + i);
          });
        });
        expect(result.uses).toEqual(
          [...firstUse].map(([digest, position]) => ({ digest, position })),
        );
      }),
    );
  });
});
