import type { LanguageModelV3FilePart, LanguageModelV3TextPart } from '@ai-sdk/provider';
import { InvalidArgumentError, type MessageContent } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AiSdkPartError } from '../errors/ai-sdk-part-error.js';
import { base64Of, digestOf, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import type { PromptUserPart } from './ai-sdk-shapes.js';
import { toV3UserContent } from './to-v3-user-content.js';

const AT = 'messages[2].content';

describe('toV3UserContent', () => {
  it('produces parts a LanguageModelV3 user message takes', () => {
    expectTypeOf<PromptUserPart>().toExtend<LanguageModelV3TextPart | LanguageModelV3FilePart>();
  });

  it('keeps a plain string one text part, as the prompt has always had it', async () => {
    expect(await toV3UserContent('hello', AT)).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('maps text, inline bytes, base64, a data: URL and an http(s) url in order', async () => {
    const png = pngBytes(1, 2, 3);
    const content: MessageContent = [
      { type: 'text', text: 'what is this?' },
      { type: 'image', mediaType: 'image/png', data: png },
      { type: 'file', mediaType: 'application/pdf', filename: 'a.pdf', data: base64Of(PDF_BYTES) },
      {
        type: 'audio',
        mediaType: 'audio/wav',
        url: `data:audio/wav;base64,${base64Of(new Uint8Array([7, 8]))}`,
      },
      { type: 'image', mediaType: 'image/*', url: 'https://example.com/cat.png' },
    ];
    const parts = await toV3UserContent(content, AT);
    expect(parts).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'file', mediaType: 'image/png', data: png },
      { type: 'file', mediaType: 'application/pdf', filename: 'a.pdf', data: PDF_BYTES },
      { type: 'file', mediaType: 'audio/wav', data: new Uint8Array([7, 8]) },
      { type: 'file', mediaType: 'image/*', data: new URL('https://example.com/cat.png') },
    ]);
    expect(parts[1]).toMatchObject({ data: expect.any(Uint8Array) });
    expect((parts[4] as { data: unknown }).data).toBeInstanceOf(URL);
  });

  it('reads a ref through resolveRef', async () => {
    const png = pngBytes(9);
    const digest = await digestOf(png);
    const asked: string[] = [];
    const parts = await toV3UserContent(
      [{ type: 'image', mediaType: 'image/png', ref: { digest, size: png.length } }],
      AT,
      {
        resolveRef: async (ref) => {
          asked.push(ref.digest);
          return png;
        },
      },
    );
    expect(asked).toEqual([digest]);
    expect(parts).toEqual([{ type: 'file', mediaType: 'image/png', data: png }]);
  });

  it('refuses a ref without resolveRef, naming the part', async () => {
    const content: MessageContent = [
      { type: 'text', text: 'see' },
      { type: 'file', mediaType: 'text/csv', ref: { digest: `sha256:${'a'.repeat(64)}`, size: 3 } },
    ];
    const error = await toV3UserContent(content, AT).catch((e: unknown) => e);
    expect(AiSdkPartError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'REF_UNRESOLVED',
      part: 'messages[2].content[1]',
      partType: 'file',
      retryable: false,
    });
    expect((error as Error).message).toMatch(/^messages\[2\]\.content\[1\] \(file part\)/);
  });

  it('refuses bytes from resolveRef that are not the ref size', async () => {
    const content: MessageContent = [
      { type: 'file', mediaType: 'text/csv', ref: { digest: `sha256:${'b'.repeat(64)}`, size: 3 } },
    ];
    await expect(
      toV3UserContent(content, AT, { resolveRef: async () => new Uint8Array(2) }),
    ).rejects.toMatchObject({ code: 'REF_UNRESOLVED', part: 'messages[2].content[0]' });
  });

  it('lets a resolver failure through as it is', async () => {
    const failure = new Error('store down');
    const content: MessageContent = [
      { type: 'file', mediaType: 'text/csv', ref: { digest: `sha256:${'c'.repeat(64)}`, size: 3 } },
    ];
    await expect(
      toV3UserContent(content, AT, { resolveRef: async () => Promise.reject(failure) }),
    ).rejects.toBe(failure);
  });

  it('names the part whose base64 does not decode', async () => {
    const error = await toV3UserContent(
      [{ type: 'file', mediaType: 'text/plain', data: 'not base64!' }],
      AT,
    ).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'messages[2].content[0].data' });
  });
});
