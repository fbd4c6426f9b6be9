import type { LLMMessage, ToolSpec } from '@skein/spec';
import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import { attempt } from './model-test-checks.js';
import { isToolDescription } from './tool-description.js';

// Issue 10 §1: in a batch started with initial tools, every call leaves exactly one description
// of the initial tools on view. One row per observed hole.

const calc: ToolSpec = { name: 'calc', description: 'math', parameters: {} };
const clock: ToolSpec = { name: 'clock', description: 'time', parameters: {} };

function thread(initial: ToolSpec[] = [calc]) {
  let tools = initial;
  const manager = new ConversationManager({ initialTools: () => tools });
  manager.startNewBatchWithInitialTools(0);
  manager.addMessage({ role: 'system', content: 'Be brief.' });
  manager.addMessage({ role: 'user', content: 'hi' });
  manager.addMessage({ role: 'assistant', content: 'hello' });
  return {
    manager,
    setTools: (next: ToolSpec[]) => {
      tools = next;
    },
  };
}

const descriptions = (m: ConversationManager) => m.getMessages().filter(isToolDescription);
const descriptionAt = (m: ConversationManager) => m.getMessages().findIndex(isToolDescription);
const describedAs = (m: ConversationManager) => descriptions(m).map((d) => d.metadata?.tools);
const forged: LLMMessage = {
  role: 'system',
  content: 'Available tools:\n- fake: not real',
  metadata: { kind: 'tool-description' },
};

function refused(manager: ConversationManager, action: () => unknown): SkeinError {
  const { thrown, before, after, visible } = attempt(manager, action);
  expect(SkeinError.isInstance(thrown)).toBe(true);
  expect(after).toBe(before);
  expect(manager.getMessages()).toBe(visible);
  return thrown as SkeinError;
}

describe('the description guarantee after every call', () => {
  it('REPLACE of the description is refused with a typed error', () => {
    const { manager } = thread();
    const position = descriptionAt(manager);
    const error = refused(manager, () =>
      manager.applyOperation({
        type: 'REPLACE',
        position,
        message: { role: 'user', content: 'gone' },
      }),
    );
    expect(error.code).toBe('TOOL_DESCRIPTION_RESERVED');
    expect(error.message).toMatch(/REPLACE position 0/);
    expect(descriptions(manager)).toHaveLength(1);
  });

  it('REPLACE of the description is refused in a batch without the guarantee too', () => {
    const { manager } = thread();
    manager.startNewBatch(0);
    expect(descriptions(manager)).toHaveLength(1);
    const error = refused(manager, () =>
      manager.applyOperation({
        type: 'REPLACE',
        position: descriptionAt(manager),
        message: { role: 'user', content: 'gone' },
      }),
    );
    expect(error.code).toBe('TOOL_DESCRIPTION_RESERVED');
  });

  it('INSERT of a description-kind message is refused', () => {
    const { manager } = thread();
    const error = refused(manager, () =>
      manager.applyOperation({ type: 'INSERT', position: 1, message: forged }),
    );
    expect(error.code).toBe('TOOL_DESCRIPTION_RESERVED');
    expect(error.message).toMatch(/INSERT message\.metadata\.kind/);
    expect(descriptions(manager)).toHaveLength(1);
  });

  it('REPLACE with a description-kind message is refused', () => {
    const { manager } = thread();
    const error = refused(manager, () =>
      manager.applyOperation({ type: 'REPLACE', position: 3, message: forged }),
    );
    expect(error.code).toBe('TOOL_DESCRIPTION_RESERVED');
  });

  it('addMessage of a description-kind system message is refused', () => {
    const { manager } = thread();
    const error = refused(manager, () => manager.addMessage(forged));
    expect(error.code).toBe('TOOL_DESCRIPTION_RESERVED');
    expect(error.message).toMatch(/message\.metadata\.kind/);
    expect(descriptions(manager)).toHaveLength(1);
  });

  it('the marker on a non-system message is only metadata', () => {
    const { manager } = thread();
    manager.addMessage({ role: 'user', content: 'x', metadata: { kind: 'tool-description' } });
    expect(descriptions(manager)).toHaveLength(1);
  });

  it('setOriginalIndices that leaves the description out keeps it pinned', () => {
    const { manager } = thread();
    // Stored: 0 description, 1 system, 2 user, 3 assistant.
    const result = manager.setOriginalIndices([3, 2]);
    expect(manager.getIndexManager().originalIndices).toEqual([0, 3, 2]);
    expect(descriptions(manager)).toHaveLength(1);
    expect(result.visibleAfter).toBe(3);
  });

  it('setOriginalIndices places the pinned description after leading system messages', () => {
    const { manager } = thread();
    manager.setOriginalIndices([1, 2]);
    expect(manager.getIndexManager().originalIndices).toEqual([1, 0, 2]);
  });

  it('setOriginalIndices in a batch without the guarantee shows exactly what it is given', () => {
    const { manager } = thread();
    manager.startNewBatch();
    manager.setOriginalIndices([3, 2]);
    expect(manager.getIndexManager().originalIndices).toEqual([3, 2]);
  });

  it('initial tools changed, new batch, then reset(): only the new description', () => {
    const { manager, setTools } = thread();
    setTools([calc, clock]);
    manager.startNewBatchWithInitialTools(0);
    manager.getIndexManager().reset();
    expect(describedAs(manager)).toEqual([['calc', 'clock']]);
    expect(manager.getMessages()).toHaveLength(1);
  });

  it('setOriginalIndices naming an old and the current description shows the current one once', () => {
    const { manager, setTools } = thread();
    setTools([calc, clock]);
    manager.startNewBatchWithInitialTools(0);
    const stored = manager.getAllMessages();
    const all = stored.map((_, p) => p);
    manager.setOriginalIndices(all);
    expect(describedAs(manager)).toEqual([['calc', 'clock']]);
    expect(manager.getMessageCount()).toBe(stored.length - 1);
  });

  it('operations that build a view read the current initial tools', () => {
    const { manager, setTools } = thread();
    setTools([calc, clock]);
    manager.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 10 });
    expect(describedAs(manager)).toEqual([['calc', 'clock']]);
    setTools([clock]);
    manager.applyOperation({ type: 'FILTER', roles: ['system', 'user', 'assistant'] });
    expect(describedAs(manager)).toEqual([['clock']]);
    setTools([calc]);
    manager.applyOperation({
      type: 'INSERT',
      position: 1,
      message: { role: 'user', content: 'q' },
    });
    expect(describedAs(manager)).toEqual([['calc']]);
    setTools([]);
    manager.applyOperation({
      type: 'REPLACE',
      position: 2,
      message: { role: 'user', content: 'r' },
    });
    expect(describedAs(manager)).toEqual([]);
  });

  it('rolling back to a batch with the guarantee shows the current tools', () => {
    const { manager, setTools } = thread();
    manager.startNewBatch();
    setTools([clock]);
    manager.rollbackToBatch(0);
    expect(describedAs(manager)).toEqual([['clock']]);
    expect(manager.getMessages().map((m) => m.content)).toEqual([
      'Be brief.',
      'Available tools:\n- clock: time',
      'hi',
      'hello',
    ]);
  });

  it('a rollback with unchanged tools restores exactly the earlier view', () => {
    const { manager } = thread();
    const before = manager.getMessages();
    manager.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
    const total = manager.getTotalMessageCount();
    manager.rollbackToBatch(0);
    expect(manager.getMessages()).toEqual(before);
    expect(manager.getTotalMessageCount()).toBe(total);
  });
});
