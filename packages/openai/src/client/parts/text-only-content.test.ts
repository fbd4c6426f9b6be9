import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { PNG } from './test-parts.js';
import { toAssistantContent, toSystemContent } from './text-only-content.js';

const AT = 'messages[3].content';

describe('toAssistantContent', () => {
  it('sends a string, or the text of text parts joined', () => {
    expect(toAssistantContent('hi', AT)).toBe('hi');
    expect(
      toAssistantContent(
        [
          { type: 'text', text: 'Hello, ' },
          { type: 'text', text: 'world' },
        ],
        AT,
      ),
    ).toBe('Hello, world');
  });

  it('refuses a media part, naming it, rather than drop what the model said', () => {
    let error: unknown;
    try {
      toAssistantContent(
        [
          { type: 'text', text: 'Here:' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
        AT,
      );
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'messages[3].content[1]',
      details: { kind: 'role', partType: 'image', index: 1 },
    });
  });

  it('refuses malformed content with checkContent’s error', () => {
    expect(() => toAssistantContent([{ type: 'txt', text: 'x' }] as never, AT)).toThrow(
      /messages\[3\]\.content\[0\].*unknown part type/,
    );
  });
});

describe('toSystemContent', () => {
  it('sends the text of text parts joined, and refuses a media part by name', () => {
    expect(toSystemContent([{ type: 'text', text: 'Be brief.' }], 'messages[0].content')).toBe(
      'Be brief.',
    );
    expect(() =>
      toSystemContent(
        [{ type: 'image', mediaType: 'image/png', data: PNG }],
        'messages[0].content',
      ),
    ).toThrow(
      expect.objectContaining({
        argument: 'messages[0].content[0]',
        message: expect.stringContaining('a system message can hold only text'),
        details: expect.objectContaining({ kind: 'role', partType: 'image' }),
      }),
    );
  });
});
