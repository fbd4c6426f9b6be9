import { InvalidArgumentError, ProviderError } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseDecoderOptions } from './sse-decoder.js';

function decode(
  parts: readonly (string | Uint8Array)[],
  options: SseDecoderOptions = {},
): [string, string][] {
  const events: [string, string][] = [];
  const decoder = new SseDecoder((data, event) => events.push([data, event]), options);
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

  it('decodes any split of a generated stream as the WHATWG algorithm does on the whole (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '🎉', ':', ' ', 'd', '{', '"') });
    const line = fc.oneof(
      text.map((t) => `data: ${t}`),
      text.map((t) => `data:${t}`),
      fc.constant('data'),
      text.map((t) => `: ${t}`),
      fc.constantFrom('event: error', 'event: ping', 'id: 1', 'retry: 5', ''),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (lines, cuts) => {
          const whole = lines.map(([l, eol]) => l + eol).join('');
          const bytes = new TextEncoder().encode(whole);
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
          expect(decode(parts)).toEqual(reference(whole));
        },
      ),
      { numRuns: 500 },
    );
  });
});

/**
 * The WHATWG event-stream interpretation written plainly, on the whole text at once (LF, CRLF and
 * CR line ends; an unterminated last line dropped; the last event dispatched at the end).
 */
function reference(whole: string): [string, string][] {
  const events: [string, string][] = [];
  const lines = whole.split(/\r\n|\r|\n/);
  lines.pop();
  let data: string[] = [];
  let type = '';
  const dispatch = () => {
    const joined = data.join('\n');
    if (data.length !== 0 && joined.length !== 0) events.push([joined, type || 'message']);
    data = [];
    type = '';
  };
  for (const l of lines) {
    if (l === '') dispatch();
    else if (l.startsWith(':')) continue;
    else {
      const colon = l.indexOf(':');
      const name = colon === -1 ? l : l.slice(0, colon);
      let value = colon === -1 ? '' : l.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (name === 'data') data.push(value);
      else if (name === 'event') type = value;
    }
  }
  dispatch();
  return events;
}

describe('SseDecoder limits', () => {
  const limit = { maxLineLength: 16 };

  it('accepts a line of exactly maxLineLength, in any split', () => {
    const line = `data: ${'x'.repeat(10)}`;
    expect(line).toHaveLength(16);
    expect(decode([`${line}\n\n`], limit)).toEqual([['x'.repeat(10), 'message']]);
    expect(decode([...`${line}\n\n`], limit)).toEqual([['x'.repeat(10), 'message']]);
  });

  it.each([
    ['in one read', [`data: ${'x'.repeat(11)}\n\n`]],
    ['in 1-character reads', [...`data: ${'x'.repeat(11)}\n\n`]],
    ['never ended', ['data: ', 'x'.repeat(6), 'x'.repeat(6)]],
    ['as a CR-ended line', [`data: ${'x'.repeat(11)}\r\r`]],
    ['as the data lines of one event', ['data: xxxxxx\ndata: xxxxxx\ndata: xxxxxx\n\n']],
  ])('stops a line longer than maxLineLength %s with STREAM_LIMIT_EXCEEDED', (_, parts) => {
    let thrown: unknown;
    try {
      decode(parts, limit);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProviderError);
    expect(thrown).toMatchObject({ code: 'STREAM_LIMIT_EXCEEDED', retryable: false });
    expect((thrown as Error).message).toContain('maxLineLength');
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses maxLineLength %s',
    (maxLineLength) => {
      expect(() => new SseDecoder(() => {}, { maxLineLength })).toThrow(InvalidArgumentError);
    },
  );
});
