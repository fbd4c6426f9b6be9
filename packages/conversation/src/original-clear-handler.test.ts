import type { LLMMessage, ToolSpec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ConversationManager } from './conversation-manager.js';
import { handleClearOperation } from './original-clear-handler.js';
import { defaultFormatToolDescription, isToolDescription } from './tool-description.js';

// Issue 10 §2: the original design's clear handler (original-clear-handler.ts, verbatim) must mean
// on Skein's API what it meant on the original's.

const calc: ToolSpec = { name: 'calc', description: 'math', parameters: {} };
const clock: ToolSpec = { name: 'clock', description: 'time', parameters: {} };
const user = (content: string): LLMMessage => ({ role: 'user', content });
const system = (content: string): LLMMessage => ({ role: 'system', content });

function manager(tools: () => ToolSpec[]) {
  return new ConversationManager({ initialTools: tools });
}

/** Every stored system message that is not a tool description, by content. */
const storedSystemPrompts = (m: ConversationManager) =>
  m
    .getAllMessages()
    .filter((x) => x.role === 'system' && !isToolDescription(x))
    .map((x) => x.content);

function expectKeptSystemView(m: ConversationManager, tools: ToolSpec[]) {
  const view = m.getMessages();
  expect(view.every((x) => x.role === 'system')).toBe(true);
  expect(view.filter((x) => !isToolDescription(x)).map((x) => x.content)).toEqual(
    storedSystemPrompts(m),
  );
  const shown = view.filter(isToolDescription);
  expect(shown.map((d) => d.content)).toEqual(
    tools.length ? [defaultFormatToolDescription(tools)] : [],
  );
}

/** System prompts stored at 0 and 4, then a view narrowed to two messages. */
function narrowedThread(tools: ToolSpec[]) {
  const m = manager(() => tools);
  m.addMessage(system('S0'));
  m.startNewBatchWithInitialTools(0); // stores the description at 1
  m.addMessage(user('u2'));
  m.addMessage({ role: 'assistant', content: 'a3' });
  m.addMessage(system('S4'));
  m.addMessage(user('u5'));
  m.addMessage({ role: 'assistant', content: 'a6' });
  m.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 1, preserveSystem: false });
  return m;
}

describe('the original handleClearOperation, run verbatim', () => {
  it('keep-system: system messages at 0 and 4 with two visible messages', () => {
    const m = narrowedThread([calc]);
    expect(m.getMessageCount()).toBe(2);
    handleClearOperation(m, { keepSystemMessage: true });
    expectKeptSystemView(m, [calc]);
    expect(m.getMessages().map((x) => x.content)).toEqual(['S0', expect.any(String), 'S4']);
  });

  it('keep-system is the default', () => {
    const m = narrowedThread([calc]);
    handleClearOperation(m);
    expectKeptSystemView(m, [calc]);
  });

  it('keep-system: the only system message at position 4 and one visible message', () => {
    // The case: startNewBatchWithInitialTools(4) threw INVALID_BOUNDARY (range 0..1).
    const m = manager(() => []);
    for (const text of ['u0', 'u1', 'u2', 'u3']) m.addMessage(user(text));
    m.addMessage(system('S4'));
    m.addMessage(user('u5'));
    m.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 1, preserveSystem: false });
    expect(m.getMessageCount()).toBe(1);
    handleClearOperation(m, { keepSystemMessage: true });
    expect(m.getMessages().map((x) => x.content)).toEqual(['S4']);
  });

  it('keep-system: a description stored after the system prompt, two visible messages', () => {
    const m = manager(() => [calc]);
    for (const text of ['u0', 'u1', 'u2', 'u3']) m.addMessage(user(text));
    m.addMessage(system('S4'));
    m.addMessage(user('u5'));
    m.startNewBatchWithInitialTools(5); // shows u5 and the description, stored at 6
    expect(m.getMessageCount()).toBe(2);
    handleClearOperation(m, { keepSystemMessage: true });
    expectKeptSystemView(m, [calc]);
  });

  it('keep-system after the initial tools changed: the current description, once', () => {
    let tools = [calc];
    const m = manager(() => tools);
    m.startNewBatchWithInitialTools(0);
    m.addMessage(system('S1'));
    m.addMessage(user('u2'));
    tools = [calc, clock];
    m.startNewBatchWithInitialTools(2); // a second description is stored
    m.addMessage(system('S4?'));
    handleClearOperation(m, { keepSystemMessage: true });
    expectKeptSystemView(m, [calc, clock]);
  });

  it('keep-system without any stored system message takes the reset branch', () => {
    const m = manager(() => []);
    m.addMessage(user('u0'));
    handleClearOperation(m, { keepSystemMessage: true });
    expect(m.getMessages()).toEqual([]);
  });

  it('clear-all: only the description stays visible', () => {
    const m = narrowedThread([calc]);
    handleClearOperation(m, { keepSystemMessage: false });
    expect(m.getMessages().map((x) => x.content)).toEqual([defaultFormatToolDescription([calc])]);
  });

  it('clear-all from a batch without the guarantee, after the tools changed', () => {
    let tools = [calc];
    const m = manager(() => tools);
    m.startNewBatchWithInitialTools(0);
    m.addMessage(system('S1'));
    m.addMessage(user('u2'));
    m.startNewBatch(0);
    tools = [clock];
    handleClearOperation(m, { keepSystemMessage: false });
    expect(m.getMessages().map((x) => x.content)).toEqual([defaultFormatToolDescription([clock])]);
  });

  it('clear-all without initial tools leaves an empty view', () => {
    const m = narrowedThread([]);
    handleClearOperation(m, { keepSystemMessage: false });
    expect(m.getMessages()).toEqual([]);
  });

  it('the stored history is untouched by either branch', () => {
    for (const keepSystemMessage of [true, false]) {
      const m = narrowedThread([calc]);
      const before = m.getAllMessages();
      handleClearOperation(m, { keepSystemMessage });
      expect(m.getAllMessages()).toEqual(before);
    }
  });
});

describe('the original meaning of the index API', () => {
  it('a batch boundary is a storage position: the new batch shows visible messages stored there or later', () => {
    const m = manager(() => []);
    for (const text of ['0', '1', '2', '3', '4']) m.addMessage(user(text));
    m.setOriginalIndices([4, 1, 3]);
    m.startNewBatch(3);
    expect(m.getMessages().map((x) => x.content)).toEqual(['4', '3']);
    expect(m.listBatches().at(-1)?.startedAt).toBe(5);
  });

  it('a boundary up to the stored count is accepted, beyond it is a typed error', () => {
    const m = manager(() => []);
    for (const text of ['0', '1', '2']) m.addMessage(user(text));
    m.applyOperation({ type: 'TRUNCATE', keep: 'last', count: 1 });
    m.startNewBatch(3);
    expect(m.getMessages()).toEqual([]);
    expect(() => m.startNewBatch(4)).toThrow(/stored range 0\.\.3/);
  });

  it('getIndexManager().reset() empties the view of a batch without the guarantee', () => {
    const m = manager(() => [calc]);
    m.addMessage(user('0'));
    m.getIndexManager().reset();
    expect(m.getMessages()).toEqual([]);
    expect(m.getTotalMessageCount()).toBe(1);
  });

  it('reset() in a batch with the guarantee leaves only the description', () => {
    const m = narrowedThread([calc]);
    m.getIndexManager().reset();
    expect(m.getMessages().map((x) => x.content)).toEqual([defaultFormatToolDescription([calc])]);
  });
});
