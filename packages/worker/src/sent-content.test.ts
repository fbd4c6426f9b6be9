import { decodeBase64, encodeBase64, type MediaPart, type MessageContent } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeThreadJob, parseThreadJob } from './job-payload.js';
import { toPayloadContent } from './sent-content.js';

// The send job's payload codec, without a queue: what the client writes (`encodeThreadJob`) is
// what a worker reads back (`parseThreadJob` after JSON), with the same bytes in every part.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Bytes of a part, and how the sender gives them: as a Uint8Array or as base64 text. */
const given = (bytes: Uint8Array, asText: boolean) => (asText ? encodeBase64(bytes) : bytes);

const part = fc.oneof(
  fc.string().map((text) => ({ part: { type: 'text', text } as const, bytes: undefined })),
  fc
    .tuple(fc.uint8Array({ maxLength: 64 }), fc.boolean(), fc.option(fc.constantFrom('a.bin', 'b')))
    .map(([bytes, asText, filename]) => ({
      part: {
        type: 'file',
        mediaType: 'application/octet-stream',
        ...(filename === null ? {} : { filename }),
        data: given(bytes, asText),
      } as const,
      bytes,
    })),
  fc.tuple(fc.uint8Array({ maxLength: 64 }), fc.boolean()).map(([rest, asText]) => {
    const bytes = new Uint8Array([...PNG_SIGNATURE, ...rest]);
    return {
      part: { type: 'image', mediaType: 'image/png', data: given(bytes, asText) } as const,
      bytes,
    };
  }),
);

function readBack(content: MessageContent, metadata?: Record<string, unknown>) {
  const text = encodeThreadJob({
    op: 'send',
    threadId: 't1',
    message: { content, ...(metadata === undefined ? {} : { metadata }) },
  });
  const parsed = parseThreadJob(JSON.parse(text));
  if (parsed.invalid) throw parsed.invalid;
  if (parsed.job.op !== 'send') throw new Error(`read back a ${parsed.job.op} job`);
  return { text, message: parsed.job.message };
}

describe('a send job payload', () => {
  it('reads back every part, inline bytes as base64 text of the same bytes', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (given) => {
        const { message } = readBack(given.map((g) => g.part));
        const parts = message.content as readonly MediaPart[];
        expect(parts).toHaveLength(given.length);
        given.forEach(({ part, bytes }, i) => {
          const back = parts[i]!;
          if (bytes === undefined) {
            expect(back).toEqual(part);
            return;
          }
          const { data, ...rest } = back;
          expect(typeof data).toBe('string');
          expect(decodeBase64(data as string)).toEqual(bytes);
          expect(rest).toEqual(omitData(part));
        });
      }),
    );
  });

  it('writes a string message as it always did', () => {
    fc.assert(
      fc.property(fc.string(), (content) => {
        const { text, message } = readBack(content, { uiMessageId: 'u1' });
        expect(text).toBe(
          JSON.stringify({
            op: 'send',
            threadId: 't1',
            message: { content, metadata: { uiMessageId: 'u1' } },
          }),
        );
        expect(message.content).toBe(content);
      }),
    );
  });

  it('leaves the caller’s parts as they were', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const content = [{ type: 'file', mediaType: 'application/octet-stream', data: bytes }] as const;
    expect(toPayloadContent(content)).toEqual([{ ...content[0], data: 'AQID' }]);
    expect(content[0].data).toBe(bytes);
  });
});

function omitData(part: object): object {
  const { data: _data, ...rest } = part as { data?: unknown };
  return rest;
}
