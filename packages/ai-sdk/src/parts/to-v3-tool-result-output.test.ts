import type {
  LanguageModelV2ToolResultOutput,
  LanguageModelV3ToolResultOutput,
} from '@ai-sdk/provider';
import type { MessageContent } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { AiSdkPartError } from '../errors/ai-sdk-part-error.js';
import { base64Of, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import type { ToolResultOutput, V2ToolContentItem, V3ToolContentItem } from './ai-sdk-shapes.js';
import { toV2ToolResultOutput } from './to-v2-tool-result-output.js';
import { toV3ToolResultOutput } from './to-v3-tool-result-output.js';

const AT = 'messages[4].content';
const png = pngBytes(4, 5, 6);
const parts: MessageContent = [
  { type: 'text', text: 'the chart:' },
  { type: 'image', mediaType: 'image/png', data: png },
  { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', data: base64Of(PDF_BYTES) },
  { type: 'audio', mediaType: 'audio/mpeg', data: base64Of(new Uint8Array([1, 2, 3])) },
];

describe('toV3ToolResultOutput', () => {
  it('produces an output a LanguageModelV3 tool result takes', () => {
    const accepted = (
      output: ToolResultOutput<V3ToolContentItem>,
    ): LanguageModelV3ToolResultOutput => output;
    expect(accepted).toBeTypeOf('function');
  });

  it('keeps text content, and parts that are all text, the text output it was', async () => {
    expect(await toV3ToolResultOutput('42', AT)).toEqual({ type: 'text', value: '42' });
    const textParts: MessageContent = [
      { type: 'text', text: '4' },
      { type: 'text', text: '2' },
    ];
    expect(await toV3ToolResultOutput(textParts, AT)).toEqual({ type: 'text', value: '42' });
    expect(await toV2ToolResultOutput(textParts, AT)).toEqual({ type: 'text', value: '42' });
    expect(await toV3ToolResultOutput([], AT)).toEqual({ type: 'text', value: '' });
  });

  it('maps parts to text, image-data and file-data items (audio as a file)', async () => {
    expect(await toV3ToolResultOutput(parts, AT)).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'the chart:' },
        { type: 'image-data', data: base64Of(png), mediaType: 'image/png' },
        {
          type: 'file-data',
          data: base64Of(PDF_BYTES),
          mediaType: 'application/pdf',
          filename: 'report.pdf',
        },
        { type: 'file-data', data: 'AQID', mediaType: 'audio/mpeg' },
      ],
    });
  });

  it('maps http(s) urls to image-url and file-url items, unfetched', async () => {
    const output = await toV3ToolResultOutput(
      [
        { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' },
        { type: 'file', mediaType: 'text/csv', url: 'http://example.com/b.csv' },
      ],
      AT,
    );
    expect(output).toEqual({
      type: 'content',
      value: [
        { type: 'image-url', url: 'https://example.com/a.jpg' },
        { type: 'file-url', url: 'http://example.com/b.csv', mediaType: 'text/csv' },
      ],
    });
  });

  it('sends an error as error-text of its text, media left out', async () => {
    expect(await toV3ToolResultOutput(parts, AT, { isError: true })).toEqual({
      type: 'error-text',
      value: 'the chart:',
    });
  });

  it('refuses a ref without resolveRef, naming the part', async () => {
    await expect(
      toV3ToolResultOutput(
        [
          {
            type: 'image',
            mediaType: 'image/png',
            ref: { digest: `sha256:${'0'.repeat(64)}`, size: 9 },
          },
        ],
        AT,
      ),
    ).rejects.toMatchObject({ code: 'REF_UNRESOLVED', part: 'messages[4].content[0]' });
  });
});

describe('toV2ToolResultOutput', () => {
  it('produces an output a LanguageModelV2 tool result takes', () => {
    const accepted = (
      output: ToolResultOutput<V2ToolContentItem>,
    ): LanguageModelV2ToolResultOutput => output;
    expect(accepted).toBeTypeOf('function');
  });

  it('maps media to the v2 media items, base64', async () => {
    expect(await toV2ToolResultOutput(parts, AT)).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'the chart:' },
        { type: 'media', data: base64Of(png), mediaType: 'image/png' },
        { type: 'media', data: base64Of(PDF_BYTES), mediaType: 'application/pdf' },
        { type: 'media', data: 'AQID', mediaType: 'audio/mpeg' },
      ],
    });
  });

  it('refuses an http(s) url, which a v2 tool result cannot carry', async () => {
    const error = await toV2ToolResultOutput(
      [
        { type: 'text', text: 'x' },
        { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
      ],
      AT,
    ).catch((e: unknown) => e);
    expect(AiSdkPartError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'PART_UNSUPPORTED',
      part: 'messages[4].content[1]',
      partType: 'image',
    });
  });
});
