import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder } from './sse-decoder.js';

function decode(parts: readonly (string | Uint8Array)[]): [string, string][] {
  const events: [string, string][] = [];
  const decoder = new SseDecoder((data, event) => events.push([data, event]));
  for (const part of parts) {
    if (typeof part === 'string') decoder.pushText(part);
    else decoder.push(part);
  }
  decoder.end();
  return events;
}

describe('SseDecoder', () => {
  it('dispatches data payloads at blank lines', () => {
    expect(decode(['data: {"a":1}\n\ndata: [DONE]\n\n'])).toEqual([
      ['{"a":1}', 'message'],
      ['[DONE]', 'message'],
    ]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('accepts %s line endings', (_, eol) => {
    expect(decode([`data: a${eol}${eol}data: b${eol}data: c${eol}${eol}`])).toEqual([
      ['a', 'message'],
      ['b\nc', 'message'],
    ]);
  });

  it('joins a CRLF split across two reads', () => {
    expect(decode(['data: a\r', '\n\r', '\ndata: b\r\n\r\n'])).toEqual([
      ['a', 'message'],
      ['b', 'message'],
    ]);
  });

  it('carries a line split across reads', () => {
    expect(decode(['da', 'ta: {"x"', ':1}\n', '\n'])).toEqual([['{"x":1}', 'message']]);
  });

  it('ignores comments, ids, retry and unknown fields; reads event types', () => {
    expect(
      decode([
        ': keep-alive\n\n',
        'id: 7\nretry: 100\nfoo: bar\ndata: x\n\n',
        'event: error\ndata: {"error":"e"}\n\n',
        'data: after\n\n',
      ]),
    ).toEqual([
      ['x', 'message'],
      ['{"error":"e"}', 'error'],
      ['after', 'message'],
    ]);
  });

  it('removes exactly one space after the colon and accepts no colon at all', () => {
    expect(decode(['data:x\n\ndata:  two\n\ndata\ndata: y\n\n'])).toEqual([
      ['x', 'message'],
      [' two', 'message'],
      ['\ny', 'message'],
    ]);
  });

  it('does not dispatch events whose data is empty, nor fields that only look like data', () => {
    expect(decode(['data:\n\nevent: x\n\ndatax: 1\n\n'])).toEqual([]);
  });

  it('strips a UTF-8 byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('data: a\n\n')]);
    expect(decode([bytes])).toEqual([['a', 'message']]);
  });

  it('at the end dispatches a terminated event without its blank line, and drops a cut-off line', () => {
    expect(decode(['data: [DONE]\n'])).toEqual([['[DONE]', 'message']]);
    expect(decode(['data: {"a":1}\n\ndata: {"cut'])).toEqual([['{"a":1}', 'message']]);
  });

  it('yields the same events for any split of the bytes, multi-byte characters included (property)', () => {
    const payloads = ['{"t":"héllo wörld ✓ 🎉"}', '{"a":"\\n"}', 'x', '[DONE]'];
    fc.assert(
      fc.property(
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat({ max: 120 }), { maxLength: 20 }),
        (eol, cuts) => {
          const text = payloads.map((p) => `data: ${p}${eol}${eol}`).join(`: c${eol}`);
          const bytes = new TextEncoder().encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort(
            (a, b) => a - b,
          );
          const parts: Uint8Array[] = [];
          let from = 0;
          for (const point of points) {
            parts.push(bytes.subarray(from, point));
            from = point;
          }
          parts.push(bytes.subarray(from));
          expect(decode(parts).map(([data]) => data)).toEqual(payloads);
        },
      ),
      { numRuns: 300 },
    );
  });
});
