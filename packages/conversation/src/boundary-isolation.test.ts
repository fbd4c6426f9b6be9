import type { LLMMessage } from '@skein/spec';
import { SkeinError } from '@skein/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import { applyDeltas } from './snapshot.js';

// Issue 11 #9 and #10: what the API hands out or takes in is never shared with the manager's
// history, and a listener cannot break the call that notified it.

const options = { initialTools: () => [{ name: 'calc', description: 'math', parameters: {} }] };

function busy(): ConversationManager {
  const m = new ConversationManager(options);
  m.startNewBatchWithInitialTools(0);
  m.addMessage({ role: 'user', content: 'q', metadata: { trace: { spans: [1, 2] } } });
  m.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 5 });
  m.recordUsage({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
  return m;
}

describe('state handed out is not the manager’s', () => {
  it('pushing to snapshot().log[0].live does not change history', () => {
    const m = busy();
    const before = JSON.stringify(m.snapshot());
    const snapshot = m.snapshot();
    expect(() => (snapshot.log[0] as unknown as { live: number[] }).live.push(1)).toThrow(
      TypeError,
    );
    expect(() => (snapshot.log as unknown[]).push({})).not.toThrow();
    expect(JSON.stringify(m.snapshot())).toBe(before);
    // Replaying the manager's own log (revertTo) still gives the view it had.
    m.revertTo({ messages: 0, log: 0 });
    m.revertTo(m.cursor());
  });

  it('a cursor is frozen and handed out again only while nothing was added', () => {
    const m = busy();
    const first = m.cursor();
    expect(Object.isFrozen(first)).toBe(true);
    expect(m.cursor()).toBe(first);
    m.addMessage({ role: 'assistant', content: 'a' });
    const second = m.cursor();
    expect(second).not.toBe(first);
    expect(second.messages).toBe(first.messages + 1);
    // The cursor handed out first still says where the conversation was then.
    expect(first.messages).toBe(second.messages - 1);
    // A delta keeps a frozen cursor as its start; a plain one is copied, so changing it later
    // cannot move the delta.
    expect(m.deltaSince(first).from).toBe(first);
    const plain = { messages: first.messages, log: first.log };
    const delta = m.deltaSince(plain);
    plain.messages = 0;
    expect(delta.from).toEqual({ messages: first.messages, log: first.log });
  });

  it('deltaSince entries are frozen too', () => {
    const m = busy();
    const delta = m.deltaSince({ messages: 0, log: 0 });
    expect(Object.isFrozen(delta.log[1])).toBe(true);
    expect(Object.isFrozen((delta.log[1] as unknown as { live: number[] }).live)).toBe(true);
  });

  it('nested metadata is deeply frozen and a copy of the caller’s', () => {
    const m = new ConversationManager();
    const metadata = { trace: { spans: [1, 2] } };
    m.addMessage({ role: 'user', content: 'q', metadata });
    metadata.trace.spans.push(3);
    const stored = m.getStoredMessage(0)!;
    expect(stored.metadata).toEqual({ trace: { spans: [1, 2] } });
    const spans = (stored.metadata!.trace as { spans: number[] }).spans;
    expect(Object.isFrozen(spans)).toBe(true);
    expect(() => spans.push(4)).toThrow(TypeError);
  });

  it('restore() keeps none of the caller’s objects', () => {
    const snapshot = JSON.parse(JSON.stringify(busy().snapshot()));
    const restored = ConversationManager.restore(snapshot, options);
    const before = JSON.stringify(restored.snapshot());
    snapshot.log[0].live.push(7);
    snapshot.log[1].live.length = 0;
    snapshot.log[2].usage.totalTokens = 1000;
    snapshot.messages[1].metadata.trace.spans.push(9);
    snapshot.messages[1].content = 'changed';
    expect(JSON.stringify(restored.snapshot())).toBe(before);
    expect(restored.getUsage().total.totalTokens).toBe(2);
  });

  it('applyDeltas output is not tied to the deltas given', () => {
    const m = busy();
    const delta = m.deltaSince({ messages: 0, log: 0 });
    const joined = applyDeltas(undefined, [delta]);
    expect(joined.log).not.toBe(delta.log);
    expect(joined.messages).toEqual(delta.messages);
  });
});

describe('listener errors', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a throwing message:added listener does not make addMessage throw; `error` reports it', () => {
    const m = new ConversationManager();
    const reported: { error: unknown; event: string }[] = [];
    const later: number[] = [];
    m.on('error', (e) => reported.push(e));
    m.on('message:added', () => {
      throw new Error('listener bug');
    });
    m.on('message:added', (e) => later.push(e.position));
    expect(m.addMessage({ role: 'user', content: 'x' })).toBe(0);
    expect(m.getMessageCount()).toBe(1);
    expect(later).toEqual([0]);
    expect(reported).toHaveLength(1);
    expect(reported[0]!.event).toBe('message:added');
    expect((reported[0]!.error as Error).message).toBe('listener bug');
  });

  it('every event is covered: operations and batches complete whatever listeners do', () => {
    const m = new ConversationManager(options);
    const events: string[] = [];
    m.on('error', (e) => events.push(e.event));
    for (const name of [
      'message:added',
      'batch:started',
      'batch:rolledBack',
      'operation:applied',
      'usage:recorded',
    ] as const) {
      m.on(name, () => {
        throw new Error(name);
      });
    }
    m.startNewBatchWithInitialTools(0);
    m.addMessage({ role: 'user', content: 'x' });
    m.applyOperation({ type: 'CLEAR' });
    m.rollbackToBatch(0);
    m.recordUsage({ promptTokens: 1, completionTokens: 0, totalTokens: 1 });
    expect(m.getMessageCount()).toBe(2);
    expect(new Set(events)).toEqual(
      new Set([
        'message:added',
        'batch:started',
        'batch:rolledBack',
        'operation:applied',
        'usage:recorded',
      ]),
    );
  });

  it('without an `error` listener the error goes to console.error, not to the caller', () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const m = new ConversationManager();
    m.on('message:added', () => {
      throw new Error('nobody listens');
    });
    expect(() => m.addMessage({ role: 'user', content: 'x' })).not.toThrow();
    expect(printed).toHaveBeenCalledTimes(1);
    expect(String(printed.mock.calls[0]![0])).toMatch(/message:added/);
  });

  it('an `error` listener that throws is printed, not rethrown', () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const m = new ConversationManager();
    m.on('error', () => {
      throw new Error('error listener bug');
    });
    m.on('message:added', () => {
      throw new Error('first');
    });
    expect(() => m.addMessage({ role: 'user', content: 'x' })).not.toThrow();
    expect(printed).toHaveBeenCalled();
  });

  it('off() removes a listener registered with on()', () => {
    const m = new ConversationManager();
    const seen: number[] = [];
    const listener = (e: { position: number }) => seen.push(e.position);
    m.on('message:added', listener);
    m.addMessage({ role: 'user', content: 'a' });
    m.off('message:added', listener);
    m.addMessage({ role: 'user', content: 'b' });
    expect(seen).toEqual([0]);
  });

  it('a listener that calls back into the manager sees the finished operation', () => {
    const m = new ConversationManager(options);
    m.startNewBatchWithInitialTools(0);
    const seen: number[] = [];
    m.on('message:added', () => seen.push(m.getMessageCount()));
    m.applyOperation({ type: 'INSERT', position: 0, message: { role: 'user', content: 'x' } });
    expect(seen).toEqual([2]);
    const restored = ConversationManager.restore(JSON.parse(JSON.stringify(m.snapshot())), options);
    expect(restored.getMessages()).toEqual(m.getMessages());
  });
});

describe('errors stay typed', () => {
  it('a listener error is not wrapped or lost when it is a SkeinError', () => {
    const m = new ConversationManager();
    const reported: unknown[] = [];
    m.on('error', (e) => reported.push(e.error));
    const original = new SkeinError('LISTENER_CODE', 'typed');
    m.on('message:added', () => {
      throw original;
    });
    m.addMessage({ role: 'user', content: 'x' } satisfies LLMMessage);
    expect(reported).toEqual([original]);
  });
});
