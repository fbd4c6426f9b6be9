import { describe, expect, it } from 'vitest';
import { add, collect, engineWith, oneLLM } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { type Tool, toolOutput } from '../tools/tool.js';

describe('tool errors reach the model and the thread goes on', () => {
  const thrower: Tool = {
    name: 'explode',
    description: 'throws',
    parameters: { type: 'object' },
    execute: () => {
      throw new Error('boom');
    },
  };
  const sleeper: Tool = {
    name: 'sleepy',
    description: 'never ends in time',
    parameters: { type: 'object' },
    timeoutMs: 20,
    execute: (_args, { signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted by timeout'))),
      ),
  };
  const failing: Tool = {
    name: 'soft',
    description: 'returns an error output',
    parameters: { type: 'object' },
    execute: () =>
      toolOutput({ content: 'quota exceeded', isError: true, data: { retryAfter: 5 } }),
  };

  it('turns bad arguments, throws, timeouts, unknown tools and broken calls into tool messages', async () => {
    const { engine, llm } = engineWith(
      [
        {
          toolCalls: [
            { name: 'add', arguments: { a: 1, b: 'two' } },
            { name: 'add', arguments: '{"a": 1,' },
            { name: 'explode', arguments: {} },
            { name: 'sleepy', arguments: {} },
            { name: 'missing', arguments: {} },
            { name: '', arguments: '{}', error: 'the stream ended before a name arrived' },
            { name: 'soft', arguments: {} },
            { name: 'add', arguments: { a: 2, b: 3 } },
          ],
        },
        { content: 'recovered' },
      ],
      [add, thrower, sleeper, failing],
    );
    engine.registerWorkflow(oneLLM({}, ['add', 'explode', 'sleepy', 'soft']));
    const errors = collect(engine, 'tool:error');
    const { result } = await engine.run('one', { input: 'try everything' });
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe('recovered');
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      expect.stringMatching(/^Error \[TOOL_ARGUMENTS_INVALID\]: .*\/b must be number/),
      expect.stringMatching(/^Error \[TOOL_ARGUMENTS_INVALID\]: .*not valid JSON/),
      'Error [TOOL_FAILED]: boom',
      expect.stringMatching(/^Error \[TOOL_TIMEOUT\]: Tool "sleepy" did not finish within 20 ms/),
      expect.stringMatching(
        /^Error \[TOOL_NOT_FOUND\]: Tool "missing" is not registered \(available here: add, explode, sleepy, soft\)/,
      ),
      'Error [TOOL_CALL_INVALID]: the stream ended before a name arrived',
      'quota exceeded',
      '5',
    ]);
    expect(tools.every((m) => typeof m.toolCallId === 'string')).toBe(true);
    expect(tools[6]!.metadata).toMatchObject({ isError: true, data: { retryAfter: 5 } });
    // Calls run in parallel, so error events come in completion order.
    expect(errors.map((e) => e.code).sort()).toEqual([
      'TOOL_ARGUMENTS_INVALID',
      'TOOL_ARGUMENTS_INVALID',
      'TOOL_CALL_INVALID',
      'TOOL_FAILED',
      'TOOL_FAILED',
      'TOOL_NOT_FOUND',
      'TOOL_TIMEOUT',
    ]);
  });

  it('skips the schema check for tools that opt out, still parsing JSON', async () => {
    const raw: Tool = {
      ...add,
      name: 'raw',
      validateArguments: false,
      execute: (args) => JSON.stringify(args),
    };
    const { engine, llm } = engineWith(
      [
        {
          toolCalls: [
            { name: 'raw', arguments: { a: 'two' } },
            { name: 'raw', arguments: 'nope' },
          ],
        },
        { content: 'ok' },
      ],
      [raw],
    );
    engine.registerWorkflow(oneLLM({}, ['raw']));
    await engine.run('one', { input: 'x' });
    const tools = llm.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(tools[0]).toBe('{"a":"two"}');
    expect(tools[1]).toMatch(/^Error \[TOOL_ARGUMENTS_INVALID\]: .*not valid JSON/);
  });

  it('honours isEnabled per thread', async () => {
    const gated: Tool = {
      ...add,
      name: 'gated',
      isEnabled: ({ variables }) => variables.vip === true,
    };
    const { engine, llm } = engineWith(
      new ScriptedLLMClient([{ content: 'x' }], { whenExhausted: 'repeat-last' }),
      [add, gated],
    );
    engine.registerWorkflow(oneLLM({}, ['add', 'gated']));
    await engine.run('one', { input: 'a', variables: { vip: false } });
    await engine.run('one', { input: 'b', variables: { vip: true } });
    expect(llm.requests.map((r) => r.tools.map((t) => t.name))).toEqual([
      ['add'],
      ['add', 'gated'],
    ]);
  });
});
