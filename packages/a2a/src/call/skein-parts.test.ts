import type { Part } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { toSkeinParts } from './skein-parts.js';

const part = (content: Part['content'], mediaType = '', filename = ''): Part => ({
  content,
  metadata: undefined,
  filename,
  mediaType,
});

describe('toSkeinParts', () => {
  it('keeps text from separate parts apart, and data as its JSON', () => {
    expect(
      toSkeinParts([
        part({ $case: 'text', value: 'a' }),
        part({ $case: 'data', value: [1, { b: null }] }),
        part({ $case: 'text', value: 'c' }),
      ]),
    ).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: '\n[1,{"b":null}]' },
      { type: 'text', text: '\nc' },
    ]);
  });

  it('a file Skein would refuse becomes a note, not a failed result', () => {
    expect(
      toSkeinParts([
        part({ $case: 'url', value: 'gs://bucket/r.csv' }, 'text/csv', 'r.csv'),
        part({ $case: 'raw', value: Buffer.from('not a png') }, 'image/png'),
      ]),
    ).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^\[text\/csv "r\.csv" at gs:\/\/bucket\/r\.csv: not attached, /,
        ),
      },
      { type: 'text', text: expect.stringMatching(/^\n\[image\/png: not attached, /) },
    ]);
  });

  it('a file without a media type is application/octet-stream; audio is audio', () => {
    expect(
      toSkeinParts([
        part({ $case: 'url', value: 'https://example.com/x' }),
        part({ $case: 'url', value: 'https://example.com/a.wav' }, 'audio/wav'),
        part(undefined),
      ]),
    ).toEqual([
      { type: 'file', mediaType: 'application/octet-stream', url: 'https://example.com/x' },
      { type: 'audio', mediaType: 'audio/wav', url: 'https://example.com/a.wav' },
    ]);
  });
});
