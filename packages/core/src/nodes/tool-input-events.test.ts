import type { LLMClient } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { LLMToolInputEvent } from '../events/event-map.js';
import { add, oneLLM } from '../test-support/executor-fixtures.js';

/** A model that streams one call's arguments in pieces, its id arriving with the second piece. */
function streamingModel(): LLMClient {
  let calls = 0;
  return {
    name: 'streaming',
    async generate(_request, options) {
      if (calls++ > 0)
        return { message: { role: 'assistant', content: 'three' }, finishReason: 'stop' };
      const pieces = [
        { index: 0, name: 'add', argumentsDelta: '{"a":1,' },
        { index: 0, id: 'c1', argumentsDelta: '"b":2}' },
      ];
      for (const piece of pieces) options?.onEvent?.({ type: 'tool-call-delta', ...piece });
      return {
        message: {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }],
        },
        finishReason: 'tool_calls',
      };
    },
  };
}

describe('llm:tool-input', () => {
  it('streams a call’s arguments as the model sends them, before the call runs', async () => {
    const engine = new SkeinEngine({ llm: streamingModel() });
    engine.registerTools([add]);
    engine.registerWorkflow(oneLLM());
    const order: string[] = [];
    const pieces: LLMToolInputEvent[] = [];
    engine.events.on('llm:tool-input', (e) => {
      pieces.push(e);
      order.push('input');
    });
    engine.events.on('tool:call', () => order.push('call'));
    const { result } = await engine.run('one', { input: 'add' });
    expect(result).toMatchObject({ status: 'COMPLETED', output: 'three' });
    expect(
      pieces.map(({ index, toolCallId, name, delta }) => ({ index, toolCallId, name, delta })),
    ).toEqual([
      { index: 0, toolCallId: undefined, name: 'add', delta: '{"a":1,' },
      { index: 0, toolCallId: 'c1', name: undefined, delta: '"b":2}' },
    ]);
    expect(pieces[0]).toMatchObject({ nodeId: 'ask', threadId: expect.any(String) });
    expect(order).toEqual(['input', 'input', 'call']);
  });
});
