import { describe, expect, it } from 'vitest';
import { validateFineTuningLine } from './validate-fine-tuning-line.js';

const image = (url: string) => ({ type: 'image_url', image_url: { url } });
const line = (content: unknown, role = 'user') => ({
  messages: [
    { role, content },
    { role: 'assistant', content: 'a cat' },
  ],
});

describe('validateFineTuningLine on user images', () => {
  it('accepts text and image_url parts: http(s) URLs and PNG, JPEG, WEBP data URLs', () => {
    const content = [
      { type: 'text', text: 'what is it?' },
      image('https://example.test/cat.png'),
      image('data:image/png;base64,iVBORw0KGgo='),
      image('data:image/jpeg;base64,/9j/4A=='),
      image('data:image/webp;base64,UklGRg=='),
    ];
    expect(validateFineTuningLine(line(content))).toEqual([]);
  });

  it.each([
    ['a GIF data URL', [image('data:image/gif;base64,R0lGOA==')], 'jpeg|png|webp'],
    ['a file: URL', [image('file:///etc/passwd')], 'http(s) URL'],
    ['an empty array', [], 'must not be an empty array'],
    ['an audio part', [{ type: 'input_audio', input_audio: {} }], 'must be { type: "text"'],
    ['65 images', Array.from({ length: 65 }, () => image('https://x.test/a.png')), '65 images'],
    [
      'an image over 10 MB',
      [image(`data:image/png;base64,${'A'.repeat(14_000_000)}`)],
      'more than 10 MB',
    ],
  ])('rejects %s', (_, content, problem) => {
    expect(validateFineTuningLine(line(content)).join('\n')).toContain(problem);
  });

  it('rejects parts outside a user message', () => {
    const problems = validateFineTuningLine(line([image('https://x.test/a.png')], 'system'));
    expect(problems).toContain('messages[0].content: must be a string');
  });
});
