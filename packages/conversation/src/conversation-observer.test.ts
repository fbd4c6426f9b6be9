import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it, vi } from 'vitest';
import type { ConversationEventName, ConversationObserver } from './conversation-events.js';
import { ConversationManager } from './conversation-manager.js';

function recorder(wanted: readonly ConversationEventName[]) {
  const seen: { event: ConversationEventName; payload: unknown }[] = [];
  const asked: ConversationEventName[] = [];
  const observer: ConversationObserver = {
    wants: (event) => {
      asked.push(event);
      return wanted.includes(event);
    },
    notify: (event, payload) => seen.push({ event, payload }),
  };
  return { observer, seen, asked };
}

describe('a conversation observer', () => {
  it('is told of the events it wants, with their payloads, and of no others', () => {
    const { observer, seen } = recorder(['message:added', 'batch:started']);
    const m = new ConversationManager({ observer });
    m.startNewBatchWithInitialTools(0);
    m.addMessage({ role: 'user', content: 'hi' });
    m.recordUsage({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
    expect(seen.map((s) => s.event)).toEqual(['batch:started', 'message:added']);
    expect(seen[1]!.payload).toMatchObject({
      message: { role: 'user', content: 'hi' },
      position: 0,
    });
  });

  it('is told before the listeners, and the listeners still run', () => {
    const order: string[] = [];
    const m = new ConversationManager({
      observer: { wants: () => true, notify: (event) => order.push(`observer ${event}`) },
    });
    m.on('message:added', () => order.push('listener message:added'));
    m.addMessage({ role: 'user', content: 'hi' });
    expect(order).toEqual(['observer message:added', 'listener message:added']);
  });

  it('a throwing observer is reported through `error`; the call completes', () => {
    const m = new ConversationManager({
      observer: {
        wants: (event) => event === 'message:added',
        notify: () => {
          throw new Error('observer bug');
        },
      },
    });
    const reported: unknown[] = [];
    m.on('error', (e) => reported.push((e.error as Error).message));
    expect(m.addMessage({ role: 'user', content: 'hi' })).toBe(0);
    expect(m.getMessages()).toHaveLength(1);
    expect(reported).toEqual(['observer bug']);
  });

  it('wanting nothing means no payload is built for it (message:added is asked first)', () => {
    const { observer, seen, asked } = recorder([]);
    const m = new ConversationManager({ observer });
    m.addMessage({ role: 'user', content: 'hi' });
    expect(asked).toContain('message:added');
    expect(seen).toEqual([]);
  });

  it('a bad observer is refused at construction with a typed error naming the field', () => {
    const error = vi.fn();
    for (const [observer, field] of [
      [null, 'observer'],
      ['x', 'observer'],
      [{ notify: () => {} }, 'observer.wants'],
      [{ wants: () => true, notify: 3 }, 'observer.notify'],
    ] as const) {
      try {
        new ConversationManager({ observer: observer as never });
        error(field);
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidArgumentError);
        expect((e as InvalidArgumentError).message).toContain(field);
      }
    }
    expect(error).not.toHaveBeenCalled();
  });
});
