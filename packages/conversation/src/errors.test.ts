import type { LLMMessage } from '@skein/spec';
import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { ContextOperation } from './context-operations.js';
import { ConversationManager } from './conversation-manager.js';
import { ConversationError } from './errors/conversation-error.js';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';

function manager(): ConversationManager {
  const m = new ConversationManager({
    initialTools: () => [{ name: 'calc', description: 'math', parameters: {} }],
  });
  m.startNewBatchWithInitialTools(0);
  m.addMessage({ role: 'user', content: 'one' });
  m.addMessage({ role: 'assistant', content: 'two' });
  return m;
}

/** Runs `action`, expects the typed error, and checks nothing changed. */
function rejects(
  action: (m: ConversationManager) => unknown,
  type: new (...args: never[]) => SkeinError,
  code: string,
  mentions: RegExp,
) {
  const m = manager();
  const before = JSON.stringify(m.snapshot());
  const visible = m.getMessages();
  const batches = m.listBatches();
  let thrown: unknown;
  try {
    action(m);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(type);
  expect(SkeinError.isInstance(thrown)).toBe(true);
  expect((thrown as SkeinError).code).toBe(code);
  expect((thrown as Error).message).toMatch(mentions);
  expect(JSON.stringify(m.snapshot())).toBe(before);
  expect(m.getMessages()).toBe(visible);
  expect(m.listBatches()).toEqual(batches);
}

const bad = (value: unknown) => value as LLMMessage;

describe('bad input gets a typed error and leaves state untouched', () => {
  it('a boundary outside the stored range', () => {
    rejects(
      (m) => m.startNewBatch(4),
      ConversationError,
      'INVALID_BOUNDARY',
      /4.*stored range 0\.\.3/,
    );
    rejects(
      (m) => m.startNewBatchWithInitialTools(-1),
      ConversationError,
      'INVALID_BOUNDARY',
      /-1/,
    );
    rejects(
      (m) => m.applyOperation({ type: 'BATCH_MANAGEMENT', action: 'start', boundary: 1.5 }),
      ConversationError,
      'INVALID_BOUNDARY',
      /1\.5/,
    );
  });

  it('an unknown batch', () => {
    rejects((m) => m.rollbackToBatch(3), ConversationError, 'UNKNOWN_BATCH', /Batch 3.*0\.\.0/);
    rejects((m) => m.rollbackToBatch(-1), ConversationError, 'UNKNOWN_BATCH', /-1/);
  });

  it('a negative or non-integer count', () => {
    rejects(
      (m) => m.applyOperation({ type: 'TRUNCATE', keep: 'last', count: -1 }),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /count.*-1/,
    );
    rejects(
      (m) => m.applyOperation({ type: 'TRUNCATE', keep: 'first', count: 2.5 }),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /count.*2\.5/,
    );
    rejects(
      (m) => m.applyOperation({ type: 'TRUNCATE', maxTokens: Number.NaN }),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /maxTokens/,
    );
  });

  it('a message without a role or with an unknown role', () => {
    rejects(
      (m) => m.addMessage(bad({ content: 'x' })),
      ConversationError,
      'INVALID_MESSAGE',
      /no role/,
    );
    rejects(
      (m) => m.addMessage(bad({ role: 'robot', content: 'x' })),
      ConversationError,
      'INVALID_MESSAGE',
      /"robot"/,
    );
    rejects((m) => m.addMessage(bad(null)), ConversationError, 'INVALID_MESSAGE', /object/);
  });

  it('a tool message without toolCallId', () => {
    rejects(
      (m) => m.addMessage({ role: 'tool', content: '4' }),
      ConversationError,
      'INVALID_MESSAGE',
      /toolCallId/,
    );
  });

  it('malformed tool calls name the field', () => {
    let thrown: unknown;
    try {
      manager().addMessage(
        bad({
          role: 'assistant',
          content: '',
          toolCalls: [{ id: '', name: 'x', arguments: '{}' }],
        }),
      );
    } catch (error) {
      thrown = error;
    }
    expect((thrown as ConversationError).field).toBe('message.toolCalls[0].id');
  });

  it('an INSERT or REPLACE position that is not visible', () => {
    const message: LLMMessage = { role: 'user', content: 'x' };
    rejects(
      (m) => m.applyOperation({ type: 'INSERT', position: 4, message }),
      ConversationError,
      'POSITION_NOT_VISIBLE',
      /INSERT position 4.*0\.\.3/,
    );
    rejects(
      (m) => m.applyOperation({ type: 'REPLACE', position: 3, message }),
      ConversationError,
      'POSITION_NOT_VISIBLE',
      /REPLACE position 3.*0\.\.2/,
    );
    rejects(
      (m) => m.applyOperation({ type: 'INSERT', position: 0, message: bad({ role: 'tool' }) }),
      ConversationError,
      'INVALID_MESSAGE',
      /INSERT message/,
    );
  });

  it('an unknown operation or option', () => {
    rejects(
      (m) => m.applyOperation({ type: 'SHUFFLE' } as unknown as ContextOperation),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /SHUFFLE/,
    );
    rejects(
      (m) => m.applyOperation({ type: 'FILTER', mode: 'maybe' } as unknown as ContextOperation),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /maybe/,
    );
    rejects(
      (m) => m.recordUsage({ promptTokens: -1, completionTokens: 0, totalTokens: 0 }),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /promptTokens/,
    );
    rejects(
      (m) => m.setOriginalIndices([0, 9]),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /indices\[1\]/,
    );
    rejects(
      (m) => m.setOriginalIndices([1, 1]),
      InvalidArgumentError,
      'INVALID_ARGUMENT',
      /repeats/,
    );
  });

  it('SkeinError.isInstance works without instanceof (two copies of the package)', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('skein.error')]: true, code: 'X' });
    expect(SkeinError.isInstance(foreign)).toBe(true);
    expect(SkeinError.isInstance(new Error('x'))).toBe(false);
    expect(SkeinError.hasCode(ConversationError.unknownBatch(1, 1), 'UNKNOWN_BATCH')).toBe(true);
  });
});
