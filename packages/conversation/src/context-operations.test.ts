import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';

const user = (content: string): LLMMessage => ({ role: 'user', content });
const assistant = (content: string): LLMMessage => ({ role: 'assistant', content });

function exchange(id: string): LLMMessage[] {
  return [
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: `${id}a`, name: 'calc', arguments: '{}' },
        { id: `${id}b`, name: 'clock', arguments: '{}' },
      ],
    },
    { role: 'tool', content: '4', toolCallId: `${id}a`, name: 'calc' },
    { role: 'tool', content: 'noon', toolCallId: `${id}b`, name: 'clock' },
  ];
}

function filled(...messages: LLMMessage[]): ConversationManager {
  const manager = new ConversationManager({
    initialTools: () => [{ name: 'calc', description: 'math', parameters: {} }],
  });
  manager.startNewBatchWithInitialTools(0);
  for (const m of messages) manager.addMessage(m);
  return manager;
}

const contents = (m: ConversationManager) => m.getMessages().map((x) => x.content);

/** No tool message without its call, no call without its answers. */
function exchangesWhole(messages: readonly LLMMessage[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j]!.role === 'tool') j--;
      const caller = messages[j];
      if (!caller?.toolCalls?.some((c) => c.id === m.toolCallId)) return false;
    }
    if (m.toolCalls) {
      const answered = new Set<string>();
      for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++)
        answered.add(messages[j]!.toolCallId!);
      if (!m.toolCalls.every((c) => answered.has(c.id))) return false;
    }
  }
  return true;
}

describe('TRUNCATE', () => {
  it('keeps the last N messages, the system messages and the description', () => {
    const manager = filled({ role: 'system', content: 'sys' }, user('1'), user('2'), user('3'));
    const result = manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 2 });
    expect(contents(manager)).toEqual([
      expect.stringContaining('Available tools'),
      'sys',
      '2',
      '3',
    ]);
    expect(result.visibleBefore).toBe(5);
    expect(result.visibleAfter).toBe(4);
    expect(result.removed).toEqual([2]);
    expect(manager.getTotalMessageCount()).toBe(5);
  });

  it('keeps the first N messages', () => {
    const manager = filled(user('1'), user('2'), user('3'));
    manager.applyOperation({ type: 'TRUNCATE', keep: 'first', count: 1 });
    expect(contents(manager).slice(1)).toEqual(['1']);
  });

  it('never splits a tool exchange: drops it whole when it does not fit', () => {
    const manager = filled(user('q'), ...exchange('x'), assistant('done'));
    manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 3 });
    const visible = manager.getMessages();
    expect(visible.map((m) => m.role)).toEqual(['system', 'assistant']);
    expect(exchangesWhole(visible)).toBe(true);
    manager.rollbackToBatch(0);
  });

  it('keeps a whole exchange when it fits', () => {
    const manager = filled(user('q'), ...exchange('x'), assistant('done'));
    manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 4 });
    expect(manager.getMessages().map((m) => m.role)).toEqual([
      'system',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
  });

  it('can drop system messages when asked, but never the tool description', () => {
    const manager = filled({ role: 'system', content: 'sys' }, user('1'));
    manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 0, preserveSystem: false });
    expect(manager.getMessages()).toHaveLength(1);
    expect(manager.hasToolDescriptionMessage()).toBe(true);
  });

  it('fits a token budget counted by a pluggable counter', () => {
    const manager = filled(user('aaaa'), user('bbbb'), user('cccc'));
    const counter = (m: LLMMessage) => m.content.length;
    const description = manager.getMessages()[0]!.content.length;
    manager.applyOperation({ type: 'TRUNCATE', maxTokens: description + 8, tokenCounter: counter });
    expect(contents(manager).slice(1)).toEqual(['bbbb', 'cccc']);
  });

  it('counts tokens by default (an o200k_base estimate, no tokenizer loaded)', () => {
    const manager = filled(user('hello world'), user('hello world'), user('hello world'));
    // "hello world" is 2 tokens in o200k_base and in the estimate, plus 3 of framing per message.
    manager.applyOperation({ type: 'TRUNCATE', maxTokens: 1000 });
    expect(manager.getMessageCount()).toBe(4);
    const descriptionTokens = 3 + 10; // generous bound: the one-tool description is short
    manager.applyOperation({ type: 'TRUNCATE', maxTokens: descriptionTokens + 5 + 5 });
    expect(manager.getMessageCount()).toBe(3);
  });
});

describe('INSERT and REPLACE', () => {
  it('inserts at a visible position and stores the new message', () => {
    const manager = filled(user('1'), user('3'));
    const result = manager.applyOperation({ type: 'INSERT', position: 2, message: user('2') });
    expect(contents(manager).slice(1)).toEqual(['1', '2', '3']);
    expect(result.stored).toEqual([3]);
    expect(result.added).toEqual([3]);
    manager.applyOperation({ type: 'INSERT', position: 4, message: user('4') });
    expect(contents(manager).at(-1)).toBe('4');
  });

  it('replaces a visible message; the old one stays stored', () => {
    const manager = filled(user('old'));
    const result = manager.applyOperation({ type: 'REPLACE', position: 1, message: user('new') });
    expect(contents(manager).slice(1)).toEqual(['new']);
    expect(result.removed).toEqual([1]);
    expect(manager.getAllMessages().map((m) => m.content)).toContain('old');
  });
});

describe('FILTER', () => {
  it('keeps messages by role, dropping exchanges that would be split', () => {
    const manager = filled(user('q'), ...exchange('x'), assistant('done'));
    manager.applyOperation({ type: 'FILTER', roles: ['user', 'assistant'] });
    const visible = manager.getMessages();
    expect(visible.map((m) => m.content)).toEqual([expect.any(String), 'q', 'done']);
    expect(exchangesWhole(visible)).toBe(true);
  });

  it('removes by metadata', () => {
    const manager = filled(
      { role: 'user', content: 'keep' },
      { role: 'user', content: 'drop', metadata: { ephemeral: true } },
    );
    manager.applyOperation({ type: 'FILTER', metadata: { ephemeral: true }, mode: 'remove' });
    expect(contents(manager).slice(1)).toEqual(['keep']);
  });

  it('filters by predicate and keeps exchanges whole', () => {
    const manager = filled(user('q'), ...exchange('x'));
    manager.applyOperation({
      type: 'FILTER',
      predicate: (m) => m.role !== 'tool' || m.content !== 'noon',
    });
    expect(manager.getMessages().map((m) => m.role)).toEqual(['system', 'user']);
  });
});

describe('batches', () => {
  it('starts a batch at a boundary and rolls back to exactly the earlier view', () => {
    const manager = filled(user('1'), user('2'), user('3'));
    const before = manager.getMessages();
    const batch = manager.startNewBatch(2);
    expect(batch).toBe(1);
    expect(contents(manager)).toEqual(['2', '3']);
    manager.addMessage(user('4'));
    manager.applyOperation({ type: 'BATCH_MANAGEMENT', action: 'rollback', batch: 0 });
    expect(manager.getMessages()).toEqual(before);
    expect(manager.currentBatch).toBe(0);
    expect(manager.getTotalMessageCount()).toBe(5);
    expect(manager.listBatches()).toHaveLength(1);
  });

  it('records usage per batch and per thread', () => {
    const manager = filled(user('1'));
    manager.recordUsage({ promptTokens: 10, completionTokens: 5, totalTokens: 15 });
    manager.startNewBatch();
    manager.recordUsage({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
    const usage = manager.getUsage();
    expect(usage.total).toEqual({ promptTokens: 11, completionTokens: 6, totalTokens: 17 });
    expect(usage.byBatch.map((u) => u.totalTokens)).toEqual([15, 2]);
    expect(usage.currentBatch.totalTokens).toBe(2);
  });

  it('gives the thread total alone, frozen, and a copy the next usage does not change', () => {
    const manager = filled(user('1'));
    const none = manager.getTotalUsage();
    expect(none).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    expect(Object.isFrozen(none)).toBe(true);
    manager.recordUsage({ promptTokens: 10, completionTokens: 5, totalTokens: 15 });
    const first = manager.getTotalUsage();
    expect(first).toEqual(manager.getUsage().total);
    expect(Object.isFrozen(first)).toBe(true);
    manager.recordUsage({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
    expect(first.totalTokens).toBe(15);
    expect(manager.getTotalUsage()).toEqual({
      promptTokens: 11,
      completionTokens: 6,
      totalTokens: 17,
    });
    expect(none.totalTokens).toBe(0);
  });

  it('exposes the index with original positions and a reset', () => {
    const manager = filled(user('1'), user('2'));
    manager.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
    const index = manager.getIndexManager();
    expect(index.originalIndices).toEqual([0]);
    expect(index.batchBoundaries).toEqual([0, 3]);
    manager.setOriginalIndices([2, 1]);
    // The batch was started with initial tools (by CLEAR): its description stays pinned.
    expect(contents(manager)).toEqual([expect.stringContaining('Available tools'), '2', '1']);
    expect(index.positionsByRole('user')).toEqual([2, 1]);
    // reset() empties the view, as in the original design; the description stays.
    index.reset();
    expect(index.originalIndices).toEqual([0]);
    expect(manager.getTotalMessageCount()).toBe(3);
  });

  it('emits events for messages, batches and operations', () => {
    const manager = filled();
    const seen: string[] = [];
    manager.on('message:added', (e) => seen.push(`message:${e.position}`));
    manager.on('batch:started', (e) => seen.push(`batch:${e.batch}`));
    manager.on('operation:applied', (e) => seen.push(`op:${e.type}`));
    manager.addMessage(user('1'));
    manager.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
    expect(seen).toEqual(['message:1', 'batch:1', 'op:CLEAR']);
  });
});

describe('messages are history', () => {
  it('freezes stored messages so no reference can change them', () => {
    const manager = filled();
    const input = { role: 'user' as const, content: 'x', metadata: { a: 1 } };
    manager.addMessage(input);
    input.content = 'changed';
    const stored = manager.getMessages()[1]!;
    expect(stored.content).toBe('x');
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(manager.getMessages())).toBe(true);
  });
});
