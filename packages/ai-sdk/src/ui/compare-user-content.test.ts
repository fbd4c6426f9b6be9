import { InvalidArgumentError, type MessageContent } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { base64Of, digestOf, pngBytes } from '../test-support/media-bytes.js';
import type { ClientMessage } from './chat-request.js';
import { compareUserContent } from './compare-user-content.js';

const png = pngBytes(3, 1, 4);
const dataUrl = `data:image/png;base64,${base64Of(png)}`;

function client(...parts: Record<string, unknown>[]): ClientMessage {
  return { id: 'm1', role: 'user', parts };
}

describe('compareUserContent', () => {
  it('finds text the same however it is split', async () => {
    const message = client({ type: 'text', text: 'hel' }, { type: 'text', text: 'lo' });
    expect(await compareUserContent(message, 'hello', 'messages[0]')).toBeUndefined();
    expect(
      await compareUserContent(
        client({ type: 'text', text: 'hello' }),
        [
          { type: 'text', text: 'he' },
          { type: 'text', text: '' },
          { type: 'text', text: 'llo' },
        ],
        'messages[0]',
      ),
    ).toBeUndefined();
  });

  it('finds changed text, naming the client message', async () => {
    const problem = await compareUserContent(
      client({ type: 'text', text: 'hello!' }),
      'hello',
      'messages[3]',
    );
    expect(problem).toMatch(/^messages\[3\] differs from the stored user message: piece 1 is text/);
  });

  it('matches an attachment sent back as a data: URL with the stored bytes, base64 or a ref', async () => {
    const message = client(
      { type: 'text', text: 'see' },
      { type: 'file', mediaType: 'image/png', filename: 'p.png', url: dataUrl },
    );
    const asBytes: MessageContent = [
      { type: 'text', text: 'see' },
      { type: 'image', mediaType: 'image/png', data: png },
    ];
    const asRef: MessageContent = [
      { type: 'text', text: 'see' },
      {
        type: 'image',
        mediaType: 'image/png',
        ref: { digest: await digestOf(png), size: png.length },
      },
    ];
    expect(await compareUserContent(message, asBytes, 'messages[0]')).toBeUndefined();
    expect(await compareUserContent(message, asRef, 'messages[0]')).toBeUndefined();
  });

  it('finds an attachment with other bytes, another type, or one added or dropped', async () => {
    const stored: MessageContent = [
      { type: 'text', text: 'see' },
      {
        type: 'image',
        mediaType: 'image/png',
        ref: { digest: await digestOf(png), size: png.length },
      },
    ];
    const other = `data:image/png;base64,${base64Of(pngBytes(9))}`;
    const cases: [ClientMessage, string][] = [
      [
        client({ type: 'text', text: 'see' }, { type: 'file', mediaType: 'image/png', url: other }),
        'piece 2 is an attachment of type image/png',
      ],
      [client({ type: 'text', text: 'see' }), 'piece 2 is nothing'],
      [
        client(
          { type: 'text', text: 'see' },
          { type: 'file', mediaType: 'image/png', url: dataUrl },
          { type: 'file', mediaType: 'image/png', url: dataUrl },
        ),
        'piece 3 is an attachment of type image/png where the stored message has nothing',
      ],
      [
        client(
          { type: 'text', text: 'see' },
          { type: 'file', mediaType: 'image/png', url: 'https://example.com/p.png' },
        ),
        'piece 2',
      ],
      [
        client(
          { type: 'text', text: 'see' },
          {
            type: 'file',
            mediaType: 'image/gif',
            url: `data:image/gif;base64,${base64Of(new TextEncoder().encode('GIF89a'))}`,
          },
        ),
        'piece 2 is an attachment of type image/gif',
      ],
    ];
    for (const [message, problem] of cases)
      expect(await compareUserContent(message, stored, 'messages[0]')).toContain(problem);
  });

  it('compares file names of file parts, and urls as written', async () => {
    const csv = `data:text/csv;base64,${base64Of(new TextEncoder().encode('a,b'))}`;
    const stored: MessageContent = [
      {
        type: 'file',
        mediaType: 'text/csv',
        filename: 'a.csv',
        data: base64Of(new TextEncoder().encode('a,b')),
      },
      { type: 'image', mediaType: 'image/*', url: 'https://example.com/x' },
    ];
    const same = client(
      { type: 'file', mediaType: 'text/csv', filename: 'a.csv', url: csv },
      { type: 'file', mediaType: 'image/*', url: 'https://example.com/x' },
    );
    const renamed = client(
      { type: 'file', mediaType: 'text/csv', filename: 'b.csv', url: csv },
      { type: 'file', mediaType: 'image/*', url: 'https://example.com/x' },
    );
    expect(await compareUserContent(same, stored, 'messages[0]')).toBeUndefined();
    expect(await compareUserContent(renamed, stored, 'messages[0]')).toMatch(
      /piece 1 is an attachment of type text\/csv/,
    );
  });

  it('refuses a client part that is not content, naming it', async () => {
    const error = await compareUserContent(
      client(
        { type: 'text', text: 'x' },
        { type: 'file', mediaType: 'image/png', url: 'file:///etc/passwd' },
      ),
      'x',
      'messages[1]',
    ).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'messages[1].parts[1]' });
  });
});
