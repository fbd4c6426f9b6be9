import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { isToolOutput, toolOutput } from '../tool-output.js';
import { encodeBase64 } from './base64.js';
import type { ContentPart, MediaPart } from './content-part.js';
import { contentText, isPartsContent } from './content-text.js';
import { isMediaPart, partByteLength, partBytes } from './part-bytes.js';

const bytes = Uint8Array.of(1, 2, 3, 250);
const DIGEST = `sha256:${'0'.repeat(64)}`;

describe('contentText and isPartsContent', () => {
  it('give a string back as it is, and the text parts of a list joined', () => {
    expect(contentText('plain')).toBe('plain');
    expect(isPartsContent('plain')).toBe(false);
    const parts: ContentPart[] = [
      { type: 'text', text: 'What is ' },
      { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
      { type: 'text', text: 'in this picture?' },
    ];
    expect(contentText(parts)).toBe('What is in this picture?');
    expect(isPartsContent(parts)).toBe(true);
    expect(contentText([])).toBe('');
  });

  it('a text split into text parts anywhere reads back whole', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (pieces) => {
        const parts = pieces.map((text): ContentPart => ({ type: 'text', text }));
        expect(contentText(parts)).toBe(pieces.join(''));
      }),
    );
  });
});

describe('partBytes and partByteLength', () => {
  it.each<[string, MediaPart]>([
    ['bytes', { type: 'file', mediaType: 'application/octet-stream', data: bytes }],
    ['base64', { type: 'file', mediaType: 'application/octet-stream', data: encodeBase64(bytes) }],
    [
      'a data: URL',
      {
        type: 'file',
        mediaType: 'application/octet-stream',
        url: `data:;base64,${encodeBase64(bytes)}`,
      },
    ],
  ])('inline as %s: the bytes, and their length', (_, part) => {
    expect(partBytes(part)).toEqual(bytes);
    expect(partByteLength(part)).toBe(4);
    expect(isMediaPart(part)).toBe(true);
  });

  it('hands Uint8Array data back as the same object (no copy)', () => {
    expect(partBytes({ type: 'file', mediaType: 'text/plain', data: bytes })).toBe(bytes);
  });

  it('nothing for bytes that are elsewhere; a ref knows its size, a remote URL does not', () => {
    const remote: MediaPart = {
      type: 'image',
      mediaType: 'image/png',
      url: 'https://x.test/a.png',
    };
    const stored: MediaPart = {
      type: 'image',
      mediaType: 'image/png',
      ref: { digest: DIGEST, size: 9 },
    };
    expect(partBytes(remote)).toBeUndefined();
    expect(partBytes(stored)).toBeUndefined();
    expect(partByteLength(remote)).toBeUndefined();
    expect(partByteLength(stored)).toBe(9);
  });

  it('a text part: its UTF-8 length, as an encoder counts it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(partByteLength({ type: 'text', text })).toBe(new TextEncoder().encode(text).length);
        expect(isMediaPart({ type: 'text', text })).toBe(false);
      }),
    );
  });

  it('refuses base64 that does not decode, and a data: URL that is not base64, naming the field', () => {
    const caught = (part: MediaPart) => {
      try {
        partBytes(part, 'messages[1].content[0]');
      } catch (error) {
        return error;
      }
    };
    const bad = caught({ type: 'audio', mediaType: 'audio/wav', data: 'UklG R==' });
    expect(InvalidArgumentError.isInstance(bad)).toBe(true);
    expect(bad).toMatchObject({
      argument: 'messages[1].content[0].data',
      details: { kind: 'base64' },
    });
    const notBase64 = caught({ type: 'audio', mediaType: 'audio/wav', url: 'data:audio/wav,RIFF' });
    expect(InvalidArgumentError.isInstance(notBase64)).toBe(true);
    expect(notBase64).toMatchObject({
      argument: 'messages[1].content[0].url',
      details: { kind: 'url' },
    });
  });

  it('length and bytes agree for any inline data', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (data, asText) => {
        const part: MediaPart = {
          type: 'file',
          mediaType: 'application/octet-stream',
          data: asText ? encodeBase64(data) : data,
        };
        expect(partBytes(part)).toEqual(data);
        expect(partByteLength(part)).toBe(data.length);
      }),
    );
  });
});

describe('toolOutput with parts', () => {
  it('keeps the parts, and their text as content', () => {
    const parts: ContentPart[] = [
      { type: 'text', text: 'Sales by month:' },
      { type: 'image', mediaType: 'image/png', data: bytes },
    ];
    const output = toolOutput({ content: parts, data: { rows: 12 } });
    expect(isToolOutput(output)).toBe(true);
    expect(output).toMatchObject({ content: 'Sales by month:', parts, isError: false });
    expect(output.parts).toBe(parts);
  });

  it('a text result has no parts, as before', () => {
    expect('parts' in toolOutput({ content: 'done' })).toBe(false);
    expect(toolOutput({ content: 'done' }).content).toBe('done');
  });
});
