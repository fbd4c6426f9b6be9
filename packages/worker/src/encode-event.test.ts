import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeEvent, MAX_NOTIFY_BYTES } from './encode-event.js';

describe('encodeEvent', () => {
  it('keeps a small event whole', () => {
    const data = { threadId: 't', nodeId: 'n', step: 3 };
    expect(JSON.parse(encodeEvent('node:started', data))).toEqual({ event: 'node:started', data });
  });

  it('drops the large fields of a large event and names them', () => {
    const data = { threadId: 't', status: 'COMPLETED', output: 'x'.repeat(20_000) };
    const decoded = JSON.parse(encodeEvent('thread:completed', data));
    expect(decoded.data).toEqual({ threadId: 't', status: 'COMPLETED' });
    expect(decoded.truncated.omitted).toEqual(['output']);
    expect(decoded.truncated.bytes).toBeGreaterThan(20_000);
  });

  it("keeps a large message's role and metadata, so a page still knows which message it is", () => {
    const message = {
      role: 'user',
      content: [
        { type: 'text', text: 'see this' },
        { type: 'file', data: 'A'.repeat(50_000) },
      ],
      metadata: { uiMessageId: 'u-7', inbox: 3, inboxId: 'job:9' },
    };
    const decoded = JSON.parse(
      encodeEvent('message:added', { threadId: 't', message, position: 4 }),
    );
    expect(decoded.data).toEqual({
      threadId: 't',
      message: { role: 'user', metadata: message.metadata },
      position: 4,
    });
    expect(decoded.truncated.omitted).toEqual(['message.content']);
  });

  it('always fits under the limit and always parses, whatever the event holds', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.dictionary(fc.string({ maxLength: 400 }), fc.jsonValue({ maxDepth: 3 }), {
          maxKeys: 60,
        }),
        fc.string({ unit: 'binary', maxLength: 3_000 }),
        (event, fields, threadId) => {
          const text = encodeEvent(event, { ...fields, threadId });
          expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);
          expect(JSON.parse(text).event).toBe(event);
        },
      ),
      { numRuns: 300 },
    );
  });
});
