import type { LanguageModelV3Content, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { base64Of, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import { fromModelContent, fromModelFile } from './from-model-content.js';

describe('fromModelContent', () => {
  it('keeps a text-only answer a plain string', () => {
    const content: LanguageModelV3Content[] = [
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: 'a ' },
      { type: 'text', text: 'cat' },
    ];
    expect(fromModelContent(content)).toBe('a cat');
  });

  it('turns a generated image into an image part, in its place among the text', () => {
    const png = pngBytes(1, 2);
    const content: LanguageModelV3Content[] = [
      { type: 'text', text: 'here it is:' },
      { type: 'file', mediaType: 'image/png', data: png },
      { type: 'tool-call', toolCallId: 't', toolName: 'x', input: '{}' },
      { type: 'file', mediaType: 'application/pdf', data: base64Of(PDF_BYTES) },
      { type: 'text', text: 'done' },
    ];
    expect(fromModelContent(content)).toEqual([
      { type: 'text', text: 'here it is:' },
      { type: 'image', mediaType: 'image/png', data: base64Of(png) },
      { type: 'file', mediaType: 'application/pdf', data: base64Of(PDF_BYTES) },
      { type: 'text', text: 'done' },
    ]);
  });

  it('names the model content item whose file is not what it says', () => {
    const content: LanguageModelV3Content[] = [
      { type: 'reasoning', text: 'drawing' },
      { type: 'text', text: 'here' },
      { type: 'file', mediaType: 'image/png', data: base64Of(PDF_BYTES) },
    ];
    let error: unknown;
    try {
      fromModelContent(content);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      argument: 'response.content[2]',
      details: { kind: 'signature', index: 2, partType: 'image' },
    });
  });
});

describe('fromModelFile', () => {
  it('takes a streamed file part (audio here) to an audio part with base64 data', () => {
    const streamed: LanguageModelV3StreamPart = {
      type: 'file',
      mediaType: 'audio/wav',
      data: new Uint8Array([0, 1, 2]),
    };
    expect(fromModelFile(streamed as Extract<LanguageModelV3StreamPart, { type: 'file' }>)).toEqual(
      {
        type: 'audio',
        mediaType: 'audio/wav',
        data: 'AAEC',
      },
    );
  });
});
