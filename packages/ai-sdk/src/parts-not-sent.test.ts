import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { toPrompt } from './model/to-prompt.js';
import { toUIMessages } from './ui/stored-chat.js';

const withImage: LLMMessage[] = [
  { role: 'user', content: 'hi' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'and this?' },
      { type: 'image', mediaType: 'image/png', url: 'https://x.test/a.png' },
    ],
  },
];

describe('content in parts, before this package maps it', () => {
  it('is refused by the prompt mapping with a typed error naming the message', () => {
    expect(() => toPrompt(withImage, (name) => name)).toThrow(
      expect.objectContaining({
        code: 'CONTENT_PARTS_UNSUPPORTED',
        details: { where: 'messages[1].content', partTypes: ['text', 'image'] },
      }),
    );
  });

  it('is refused by the UI mapping of a stored chat rather than shown without its image', () => {
    expect(() => toUIMessages(withImage)).toThrow(
      expect.objectContaining({ code: 'CONTENT_PARTS_UNSUPPORTED' }),
    );
  });
});
