import { contentText, type LLMMessage, type ToolSpec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import { isToolDescription } from './tool-description.js';

const calculator: ToolSpec = {
  name: 'calculator',
  description: 'Evaluates arithmetic',
  parameters: { type: 'object', properties: { expression: { type: 'string' } } },
};
const clock: ToolSpec = {
  name: 'clock',
  description: 'Tells the time',
  parameters: { type: 'object', properties: {} },
};

function descriptions(messages: readonly LLMMessage[]): LLMMessage[] {
  return messages.filter(isToolDescription);
}

function newThread(tools: ToolSpec[] = [calculator, clock]) {
  const manager = new ConversationManager({ initialTools: () => tools });
  manager.startNewBatchWithInitialTools(0);
  return manager;
}

// The original design's six scenarios, plus the case its flaw broke.
describe('the initial-tool description guarantee', () => {
  it('1. a normal start shows exactly one description naming every initial tool', () => {
    const manager = newThread();
    manager.addMessage({ role: 'user', content: 'What is 2+2?' });
    const shown = descriptions(manager.getMessages());
    expect(shown).toHaveLength(1);
    expect(shown[0]!.content).toBe(
      'Available tools:\n- calculator: Evaluates arithmetic\n- clock: Tells the time',
    );
    expect(shown[0]!.metadata).toMatchObject({ kind: 'tool-description' });
    expect(manager.hasToolDescriptionMessage()).toBe(true);
    expect(manager.currentBatch).toBe(0);
  });

  it('2. CLEAR keeping system messages keeps them and shows the description once', () => {
    const manager = newThread();
    manager.addMessage({ role: 'system', content: 'You are a travel agent.' });
    manager.addMessage({ role: 'user', content: 'Book Rome' });
    manager.addMessage({ role: 'assistant', content: 'Done' });
    const result = manager.applyOperation({ type: 'CLEAR', keepSystemMessage: true });
    expect(result.batchStarted).toBe(true);
    const visible = manager.getMessages();
    expect(visible.map((m) => m.role)).toEqual(['system', 'system']);
    expect(visible.some((m) => m.content === 'You are a travel agent.')).toBe(true);
    expect(descriptions(visible)).toHaveLength(1);
  });

  it('3. CLEAR dropping system messages still shows the description (the original flaw)', () => {
    const manager = newThread();
    manager.addMessage({ role: 'system', content: 'You are a travel agent.' });
    manager.addMessage({ role: 'user', content: 'Book Rome' });
    manager.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
    const visible = manager.getMessages();
    expect(visible).toHaveLength(1);
    expect(descriptions(visible)).toHaveLength(1);
    // The old description is still stored (in an invisible batch): it must not count.
    expect(descriptions(manager.getAllMessages()).length).toBeGreaterThanOrEqual(1);
  });

  it('a description stored only in earlier, invisible batches does not count', () => {
    const manager = newThread();
    manager.addMessage({ role: 'user', content: 'hello' });
    manager.startNewBatch(); // a plain batch: shows nothing, not even the description
    expect(manager.hasToolDescriptionMessage()).toBe(false);
    expect(descriptions(manager.getAllMessages())).toHaveLength(1);
    manager.startNewBatchWithInitialTools();
    expect(descriptions(manager.getMessages())).toHaveLength(1);
  });

  it('4. repeated batch operations never duplicate the description', () => {
    const manager = newThread();
    for (let i = 0; i < 5; i++) {
      manager.startNewBatchWithInitialTools(0);
      manager.applyOperation({ type: 'CLEAR' });
      manager.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
      manager.applyOperation({ type: 'BATCH_MANAGEMENT', action: 'start', boundary: 0 });
      expect(descriptions(manager.getMessages())).toHaveLength(1);
    }
    // An unchanged description is reused, not stored again per batch.
    expect(descriptions(manager.getAllMessages())).toHaveLength(1);
  });

  it('5. a workflow without initial tools never shows a description', () => {
    const manager = newThread([]);
    manager.addMessage({ role: 'user', content: 'hi' });
    manager.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
    manager.applyOperation({ type: 'CLEAR', keepSystemMessage: true });
    expect(manager.hasToolDescriptionMessage()).toBe(false);
    expect(descriptions(manager.getAllMessages())).toHaveLength(0);
    expect(manager.getInitialToolDescriptionMessage()).toBeUndefined();
  });

  it('6. dynamic tools are ordinary messages with no guarantee', () => {
    const manager = newThread();
    manager.addMessage({
      role: 'system',
      content: 'New tool available: weather',
      metadata: { kind: 'dynamic-tool' },
    });
    expect(descriptions(manager.getMessages())).toHaveLength(1);
    manager.applyOperation({ type: 'CLEAR', keepSystemMessage: false });
    const visible = manager.getMessages();
    expect(visible.some((m) => contentText(m.content).includes('weather'))).toBe(false);
    expect(descriptions(visible)[0]!.content).not.toContain('weather');
  });

  it('a system prompt that merely starts like a description is not one', () => {
    const manager = new ConversationManager({ initialTools: () => [calculator] });
    manager.addMessage({ role: 'system', content: 'Available tools:\n- fake: not a tool' });
    expect(manager.hasToolDescriptionMessage()).toBe(false);
    manager.startNewBatchWithInitialTools(0);
    const visible = manager.getMessages();
    expect(visible).toHaveLength(2);
    expect(descriptions(visible)).toHaveLength(1);
    expect(visible[0]!.content).toContain('fake');
  });

  it('the description follows the current initial tools', () => {
    let tools: ToolSpec[] = [calculator];
    const manager = new ConversationManager({ initialTools: () => tools });
    manager.startNewBatchWithInitialTools(0);
    tools = [calculator, clock];
    manager.startNewBatchWithInitialTools(0);
    const shown = descriptions(manager.getMessages());
    expect(shown).toHaveLength(1);
    expect(shown[0]!.content).toContain('clock');
    tools = [];
    manager.startNewBatchWithInitialTools(0);
    expect(manager.hasToolDescriptionMessage()).toBe(false);
  });

  it('uses a custom formatter and places the description after leading system messages', () => {
    const manager = new ConversationManager({
      initialTools: () => [calculator, clock],
      formatToolDescription: (tools) => `Tools: ${tools.map((t) => t.name).join(', ')}`,
    });
    manager.addMessage({ role: 'system', content: 'Be brief.' });
    manager.addMessage({ role: 'user', content: 'hi' });
    manager.startNewBatchWithInitialTools(0);
    expect(manager.getMessages().map((m) => m.content)).toEqual([
      'Be brief.',
      'Tools: calculator, clock',
      'hi',
    ]);
    expect(manager.getInitialToolDescriptionMessage()?.content).toBe('Tools: calculator, clock');
  });
});
