import { InvalidArgumentError, type LLMMessage } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const PNG_BASE64 = Buffer.from(PNG).toString('base64');

function caught(run: () => unknown): InvalidArgumentError {
  try {
    run();
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error as InvalidArgumentError;
    throw error;
  }
  throw new Error('no error');
}

describe('messages in parts', () => {
  it('stores an image part with its bytes as base64, frozen and JSON-clean', () => {
    const manager = new ConversationManager();
    manager.addMessage({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
    });
    const [stored] = manager.getMessages();
    expect(stored!.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
    ]);
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    expect(Object.isFrozen((stored!.content as readonly object[])[1])).toBe(true);
  });

  it('keeps a string content exactly as before', () => {
    const manager = new ConversationManager();
    manager.addMessage({ role: 'user', content: 'hi' });
    expect(manager.getMessages()).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it.each([
    [
      'an unknown part type',
      { type: 'video', mediaType: 'video/mp4', data: PNG_BASE64 },
      'part-type',
    ],
    [
      'PNG bytes labelled image/jpeg',
      { type: 'image', mediaType: 'image/jpeg', data: PNG },
      'signature',
    ],
    [
      'a file: URL',
      { type: 'file', mediaType: 'application/pdf', url: 'file:///etc/passwd' },
      'url',
    ],
  ])('refuses %s naming the part, storing nothing', (_, part, kind) => {
    const manager = new ConversationManager();
    manager.addMessage({ role: 'user', content: 'before' });
    const before = manager.getMessages();
    const message = { role: 'user', content: [{ type: 'text', text: 'look' }, part] };
    const error = caught(() => manager.addMessage(message as unknown as LLMMessage));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('message.content[1]');
    expect(error.details).toMatchObject({ kind, index: 1 });
    expect(manager.getMessages()).toEqual(before);
  });

  it('stores any bytes as the base64 that decodes back to them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const manager = new ConversationManager();
        manager.addMessage({
          role: 'user',
          content: [{ type: 'file', mediaType: 'application/octet-stream', data: bytes }],
        });
        const part = (manager.getMessages()[0]!.content as readonly { data: string }[])[0]!;
        expect(typeof part.data).toBe('string');
        expect(new Uint8Array(Buffer.from(part.data, 'base64'))).toEqual(new Uint8Array(bytes));
      }),
    );
  });

  it('keeps tool exchanges whole under FILTER when the messages hold parts', () => {
    const manager = new ConversationManager();
    manager.addMessage({ role: 'user', content: [{ type: 'text', text: 'chart?' }] });
    manager.addMessage({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'chart', arguments: '{}' }],
    });
    manager.addMessage({
      role: 'tool',
      toolCallId: 'c1',
      name: 'chart',
      content: [
        { type: 'text', text: 'here' },
        { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
      ],
    });
    manager.applyOperation({ type: 'FILTER', roles: ['user', 'tool'] });
    expect(manager.getMessages().map((m) => m.role)).toEqual(['user']);
  });

  it('truncates by tokens counting the image, dropping its tool exchange whole', () => {
    const manager = new ConversationManager();
    manager.addMessage({ role: 'user', content: 'chart?' });
    manager.addMessage({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'chart', arguments: '{}' }],
    });
    manager.addMessage({
      role: 'tool',
      toolCallId: 'c1',
      name: 'chart',
      content: [{ type: 'image', mediaType: 'image/png', data: PNG_BASE64 }],
    });
    manager.addMessage({ role: 'assistant', content: 'it rises' });
    // The image alone is 765 tokens (its size unknown: a 1024x1024 image): 1000 holds it all,
    // 100 keeps only what follows the exchange, never half of it.
    manager.applyOperation({ type: 'TRUNCATE', maxTokens: 1000 });
    expect(manager.getMessages()).toHaveLength(4);
    manager.applyOperation({ type: 'TRUNCATE', maxTokens: 100 });
    expect(manager.getMessages().map((m) => m.role)).toEqual(['assistant']);
    expect(manager.getMessages().at(-1)!.content).toBe('it rises');
  });
});
