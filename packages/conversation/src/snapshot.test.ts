import type { ToolSpec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import { ConversationError } from './errors/conversation-error.js';
import { applyDeltas, type ConversationSnapshot } from './snapshot.js';

const tools: ToolSpec[] = [{ name: 'calc', description: 'math', parameters: {} }];
const options = { initialTools: () => tools };

function busy(): ConversationManager {
  const m = new ConversationManager(options);
  m.startNewBatchWithInitialTools(0);
  m.addMessage({ role: 'system', content: 'sys' });
  m.addMessage({ role: 'user', content: 'q' });
  m.addMessage({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c1', name: 'calc', arguments: '{"x":1}' }],
  });
  m.addMessage({ role: 'tool', content: '1', toolCallId: 'c1', name: 'calc', metadata: { ms: 3 } });
  m.recordUsage({ promptTokens: 3, completionTokens: 2, totalTokens: 5 });
  m.applyOperation({ type: 'REPLACE', position: 2, message: { role: 'user', content: 'q2' } });
  m.applyOperation({ type: 'CLEAR', keepSystemMessage: true });
  m.addMessage({ role: 'user', content: 'after clear' });
  return m;
}

function invalid(snapshot: unknown): ConversationError<'INVALID_SNAPSHOT'> {
  try {
    ConversationManager.restore(snapshot, options);
  } catch (error) {
    if (ConversationError.isInstance(error) && error.code === 'INVALID_SNAPSHOT')
      return error as ConversationError<'INVALID_SNAPSHOT'>;
    throw error;
  }
  throw new Error('restore accepted an invalid snapshot');
}

describe('snapshot and restore', () => {
  it('round-trips through JSON and behaves identically afterwards', () => {
    const original = busy();
    const restored = ConversationManager.restore(
      JSON.parse(JSON.stringify(original.snapshot())),
      options,
    );
    expect(restored.getMessages()).toEqual(original.getMessages());
    expect(restored.getAllMessages()).toEqual(original.getAllMessages());
    expect(restored.listBatches()).toEqual(original.listBatches());
    expect(restored.getUsage()).toEqual(original.getUsage());
    for (const m of [original, restored]) {
      m.addMessage({ role: 'user', content: 'more' });
      m.rollbackToBatch(0);
      m.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
    }
    expect(restored.snapshot()).toEqual(original.snapshot());
  });

  it('saves incrementally: a delta holds only what changed since the cursor', () => {
    const m = busy();
    const base = m.snapshot();
    const cursor = m.cursor();
    m.addMessage({ role: 'user', content: 'next' });
    m.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 1 });
    const delta = m.deltaSince(cursor);
    expect(delta.messages).toHaveLength(1);
    expect(delta.log).toHaveLength(1);
    const joined = applyDeltas(base, [delta]);
    const restored = ConversationManager.restore(joined, options);
    expect(restored.snapshot()).toEqual(m.snapshot());
  });

  it('rejects deltas that do not follow each other', () => {
    const m = busy();
    const delta = m.deltaSince({ messages: 2, log: 1 });
    expect(() => applyDeltas(undefined, [delta])).toThrow(/deltas\[0\]\.from/);
  });

  it('names the field of an invalid snapshot', () => {
    const good = busy().snapshot();
    expect(invalid(null).field).toBe('snapshot');
    expect(invalid({ ...good, version: 2 }).field).toBe('version');
    expect(invalid({ ...good, messages: 'no' }).field).toBe('messages');
    const badRole = structuredClone(good) as unknown as { messages: { role: string }[] };
    badRole.messages[3]!.role = 'robot';
    expect(invalid(badRole).field).toBe('messages[3].role');
    const badLive = structuredClone(good) as unknown as { log: { live?: number[] }[] };
    badLive.log[0]!.live = [99];
    expect(invalid(badLive).field).toBe('log[0].live[0]');
    const badOp = structuredClone(good) as unknown as { log: { op: string }[] };
    badOp.log[1]!.op = 'explode';
    expect(invalid(badOp).field).toBe('log[1].op');
    const badRollback: ConversationSnapshot = {
      version: 1,
      messages: [],
      log: [{ op: 'rollback', at: 0, batch: 4 }],
    };
    expect(invalid(badRollback).field).toBe('log[0].batch');
    const badAt = structuredClone(good) as unknown as { log: { at: number }[] };
    badAt.log[1]!.at = 1000;
    expect(invalid(badAt).field).toBe('log[1].at');
  });
});
