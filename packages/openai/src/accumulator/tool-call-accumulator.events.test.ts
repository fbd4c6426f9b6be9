import type { LLMStreamEvent } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { calls, chunk, fn, run } from './accumulator-test-chunks.js';

describe('text, reasoning and events', () => {
  it('keeps text, reasoning and refusal in separate buffers', () => {
    const result = run([
      chunk({ reasoning_content: 'think ' }),
      chunk({ reasoning: 'more' }),
      chunk({ reasoning_content: 'x', reasoning: 'x' }),
      chunk({ content: 'Hello' }),
      calls({ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{}' }) }),
      chunk({ content: '\n' }),
      chunk({ refusal: 'no' }),
    ]);
    expect(result).toMatchObject({ reasoning: 'think morex', text: 'Hello\n', refusal: 'no' });
  });

  it('streams text, reasoning, tool-call deltas (id and name once) and warnings', () => {
    const events: LLMStreamEvent[] = [];
    run(
      [
        chunk({ reasoning_content: 'r' }),
        chunk({ content: 't' }),
        calls({ index: 3, id: 'c', ...fn({ name: 'n', arguments: '' }) }),
        calls({ index: 3, id: 'c', ...fn({ name: 'n', arguments: '{' }) }),
        calls({ index: 3, ...fn({ arguments: '' }) }),
        calls({ index: 3, ...fn({ arguments: '}' }) }),
        calls({ index: 4, ...fn({ name: 'm', arguments: '{}' }) }),
      ],
      { onEvent: (e) => events.push(e) },
    );
    expect(events.slice(0, 5)).toEqual([
      { type: 'reasoning-delta', delta: 'r' },
      { type: 'text-delta', delta: 't' },
      { type: 'tool-call-delta', index: 0, id: 'c', name: 'n', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
    ]);
    expect(events[5]).toEqual({
      type: 'tool-call-delta',
      index: 1,
      name: 'm',
      argumentsDelta: '{}',
    });
    expect(events[6]).toMatchObject({ type: 'warning', code: 'TOOL_CALL_ID_GENERATED' });
    expect(events).toHaveLength(7);
  });

  it('assembles every choice, with the first one seen as the message', () => {
    const result = run([
      {
        choices: [
          { index: 0, delta: { content: 'zero' } },
          {
            index: 1,
            delta: { tool_calls: [{ index: 0, id: 'i', ...fn({ name: 'n', arguments: '{}' }) }] },
          },
        ],
      },
      { choices: [{ index: 1, delta: {}, finish_reason: 'tool_calls' }] },
    ]);
    expect(result.text).toBe('zero');
    expect(result.toolCalls).toEqual([]);
    expect(result.choices).toHaveLength(2);
    expect(result.choices[1]).toMatchObject({ index: 1, finishReason: 'tool_calls' });
    expect(result.choices[1]!.toolCalls).toHaveLength(1);
  });

  it('records the model and response id of the first chunk that has them', () => {
    const result = run([
      { id: 'resp', model: 'm1', choices: [] },
      { id: 'other', model: 'm2', choices: [] },
    ]);
    expect(result).toMatchObject({ model: 'm1', responseId: 'resp' });
  });
});
