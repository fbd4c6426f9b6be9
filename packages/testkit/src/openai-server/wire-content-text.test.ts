import { describe, expect, it } from 'vitest';
import { describeLastMessage } from './last-message.js';
import { lastUserText, wireContentText } from './wire-content-text.js';

const PHOTO = { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(400)}` } };

describe('wireContentText', () => {
  it('reads a string, or the text parts of a list joined', () => {
    expect(wireContentText('hi')).toBe('hi');
    expect(
      wireContentText([{ type: 'text', text: 'What is ' }, PHOTO, { type: 'text', text: 'this?' }]),
    ).toBe('What is this?');
    expect(wireContentText(null)).toBe('');
    expect(wireContentText([null, 3, { type: 'text', text: 7 }])).toBe('');
  });
});

describe('lastUserText', () => {
  it('finds the last user message, past tool and assistant messages, from a body or a request', () => {
    const body = {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'user', content: [{ type: 'text', text: 'second' }, PHOTO] },
        { role: 'assistant', content: null, tool_calls: [] },
        { role: 'tool', content: 'result', tool_call_id: 'c' },
      ],
    };
    expect(lastUserText(body)).toBe('second');
    expect(lastUserText({ method: 'POST', path: '/', headers: {}, body })).toBe('second');
    expect(lastUserText({ messages: [{ role: 'system', content: 's' }] })).toBeUndefined();
    expect(
      lastUserText({ method: 'POST', path: '/', headers: {}, body: 'not json' }),
    ).toBeUndefined();
  });
});

describe('describeLastMessage', () => {
  it('names parts by wire type instead of dumping their base64', () => {
    const body = {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Look:' }, PHOTO] }],
    };
    expect(describeLastMessage(body)).toBe('user: "Look: [image_url]"');
  });
});
