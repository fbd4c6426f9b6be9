import { encodeBase64 } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { defaultCallId } from './default-call-id.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);
const OTHER_PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 2]);
const WAV = new TextEncoder().encode('RIFF....WAVEfmt ');

const ask = (content: unknown) => [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content },
];

describe('defaultCallId', () => {
  it('gives string-only conversations the ids they always had', () => {
    // Values from the implementation before parts counted: stored threads keep their ids.
    expect(
      defaultCallId(
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Oslo?' },
          { role: 'assistant', content: '' },
          { role: 'tool', content: 'sunny' },
        ],
        1,
      ),
    ).toBe('call_cf8e0014475d_1');
    expect(defaultCallId([], 0)).toBe('call_e3b0c44298fc_0');
    expect(defaultCallId([{ role: 'user', content: 7 }], 0)).toBe(
      defaultCallId([{ role: 'user', content: '' }], 0),
    );
  });

  it('gives two requests differing only in an image different ids', () => {
    const image = (data: Uint8Array) => [
      { type: 'text', text: 'What is this?' },
      { type: 'image', mediaType: 'image/png', data },
    ];
    expect(defaultCallId(ask(image(PNG)), 0)).not.toBe(defaultCallId(ask(image(OTHER_PNG)), 0));
    expect(defaultCallId(ask(image(PNG)), 0)).not.toBe(defaultCallId(ask('What is this?'), 0));
    const byUrl = (url: string) => [{ type: 'image', mediaType: 'image/png', url }];
    expect(defaultCallId(ask(byUrl('https://x.test/a.png')), 0)).not.toBe(
      defaultCallId(ask(byUrl('https://x.test/b.png')), 0),
    );
  });

  it('reads text parts as the text they hold', () => {
    expect(
      defaultCallId(
        ask([
          { type: 'text', text: 'Hi, ' },
          { type: 'text', text: 'you' },
        ]),
        0,
      ),
    ).toBe(defaultCallId(ask('Hi, you'), 0));
  });

  it('gives Skein parts and their Chat Completions form the same id (scripted client and server agree)', () => {
    const skein = [
      { type: 'text', text: 'Compare:' },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'image', mediaType: 'image/png', url: 'https://x.test/a.png' },
      { type: 'audio', mediaType: 'audio/wav', data: encodeBase64(WAV) },
      { type: 'file', mediaType: 'application/pdf', filename: 'q.pdf', data: encodeBase64(PNG) },
    ];
    const wire = [
      { type: 'text', text: 'Compare:' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${encodeBase64(PNG)}` } },
      { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
      { type: 'input_audio', input_audio: { data: encodeBase64(WAV), format: 'wav' } },
      {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${encodeBase64(PNG)}`, filename: 'q.pdf' },
      },
    ];
    expect(defaultCallId(ask(skein), 2)).toBe(defaultCallId(ask(wire), 2));
  });
});
