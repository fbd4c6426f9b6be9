import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
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
  it('is refused by the UI mapping of a stored chat rather than shown without its image', () => {
    expect(() => toUIMessages(withImage)).toThrow(
      expect.objectContaining({ code: 'CONTENT_PARTS_UNSUPPORTED' }),
    );
  });
});
