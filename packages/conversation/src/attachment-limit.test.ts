import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';

const file = (size: number) => ({
  role: 'user' as const,
  content: [{ type: 'file' as const, mediaType: 'text/plain', data: new Uint8Array(size) }],
});

describe('maxAttachmentBytes', () => {
  it('refuses a message whose attachment is over the limit, naming the part, storing nothing', () => {
    const manager = new ConversationManager({ maxAttachmentBytes: 10 });
    manager.addMessage(file(10));
    let error: unknown;
    try {
      manager.addMessage(file(11));
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'message.content[0]' });
    expect((error as Error).message).toMatch(/11 bytes, over the limit of 10/);
    expect(manager.getMessages()).toHaveLength(1);
  });

  it('applies to INSERT and REPLACE messages too', () => {
    const manager = new ConversationManager({ maxAttachmentBytes: 10 });
    manager.addMessage({ role: 'user', content: 'hi' });
    expect(() =>
      manager.applyOperation({ type: 'INSERT', position: 0, message: file(11) }),
    ).toThrow(/over the limit of 10/);
    expect(manager.getMessages()).toHaveLength(1);
  });

  it('never measures restored messages again: a lower limit does not lock a thread out', () => {
    const roomy = new ConversationManager({ maxAttachmentBytes: 100 });
    roomy.addMessage(file(50));
    const restored = ConversationManager.restore(roomy.snapshot(), { maxAttachmentBytes: 10 });
    expect(restored.getMessages()).toHaveLength(1);
    expect(() => restored.addMessage(file(50))).toThrow(/over the limit of 10/);
  });

  it('refuses a limit that is not a whole number of bytes', () => {
    for (const bad of [-1, 1.5, Number.NaN, '10'])
      expect(() => new ConversationManager({ maxAttachmentBytes: bad as number })).toThrow(
        expect.objectContaining({ argument: 'maxAttachmentBytes' }),
      );
    expect(() => new ConversationManager({ maxAttachmentBytes: Infinity })).not.toThrow();
  });
});
