import { ConversationError } from '@skein/conversation';
import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { validateConversation } from './validate-conversation.js';

const call = (id: unknown) => ({ id, name: 't', arguments: '{}' }) as never;

function rejection(messages: unknown[]): ConversationError<'INVALID_CONVERSATION'> {
  try {
    validateConversation(messages as LLMMessage[]);
  } catch (error) {
    if (ConversationError.isInstance(error) && error.code === 'INVALID_CONVERSATION')
      return error as ConversationError<'INVALID_CONVERSATION'>;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('validateConversation', () => {
  it('leaves content in parts to the mappers, which name the part', () => {
    expect(() =>
      validateConversation([
        {
          role: 'user',
          content: [{ type: 'image', mediaType: 'image/png', url: 'https://x.test/a.png' }],
        },
      ]),
    ).not.toThrow();
    expect(rejection([{ role: 'user', content: 7 }]).message).toContain(
      'content must be a string or a list of parts, got',
    );
  });

  it('accepts a well-formed tool exchange', () => {
    expect(() =>
      validateConversation([
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [call('c1'), { id: 'c2', name: '', arguments: '{}', error: 'x' }],
        },
        { role: 'tool', content: 'r', toolCallId: 'c1' },
        { role: 'tool', content: 'r', toolCallId: 'c2' },
        { role: 'assistant', content: 'done' },
      ]),
    ).not.toThrow();
  });

  it.each([null, '', undefined, 7])('rejects a tool call id %s, naming the message', (id) => {
    const error = rejection([
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', toolCalls: [call('ok'), call(id)] },
    ]);
    expect(error.code).toBe('INVALID_CONVERSATION');
    expect(error.messageIndex).toBe(1);
    expect(error.message).toMatch(/^messages\[1\]: toolCalls\[1\]\.id must be a non-empty string/);
  });

  it('rejects a tool message that answers no earlier call', () => {
    const error = rejection([
      { role: 'assistant', content: '', toolCalls: [call('a')] },
      { role: 'tool', content: 'r', toolCallId: 'a' },
      { role: 'tool', content: 'r', toolCallId: 'b' },
    ]);
    expect(error.messageIndex).toBe(2);
    expect(error.message).toContain('"b"');
  });

  it('rejects a tool message answering a call made only later', () => {
    expect(
      rejection([
        { role: 'tool', content: 'r', toolCallId: 'a' },
        { role: 'assistant', content: '', toolCalls: [call('a')] },
      ]).messageIndex,
    ).toBe(0);
  });

  it.each([
    ['a tool message without toolCallId', { role: 'tool', content: 'r' }],
    ['an unknown role', { role: 'robot', content: 'x' }],
    ['non-string content', { role: 'user', content: null }],
    ['tool calls on a user message', { role: 'user', content: '', toolCalls: [] }],
    [
      'arguments that are not a string',
      { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 't', arguments: {} }] },
    ],
    ['a message that is not an object', 'hello'],
  ])('rejects %s', (_, message) => {
    expect(rejection([{ role: 'user', content: 'u' }, message]).messageIndex).toBe(1);
  });
});
