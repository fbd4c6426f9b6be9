import { ArgumentValidator, SkeinEmitter, type Tool, ToolRunner } from '@skein/core';
import type { LLMMessage, ToolCall } from '@skein/spec';
import { toolOutput } from '@skein/spec';
import { startToolBenchServer } from '@skein/testkit';
import { describe, expect, it } from 'vitest';
import { toConvertedAnswer } from '../answer/converted-answer.js';
import { ToolBenchClient } from '../client/toolbench-client.js';
import type { ToolBenchQuery } from '../functions/types.js';
import { toolsFromQuery } from '../tools/tools-from-query.js';
import { createReActLLMClient } from './react-llm-client.js';

// Failures the engine decides itself reach the model as the function responses the reference
// writes for its own errors: every `Function:` turn is `{"error": …, "response": …}`. The tool
// messages here are written by the engine's own ToolRunner.

const query: ToolBenchQuery = {
  query: 'q',
  api_list: [
    {
      category_name: 'Data',
      tool_name: 'Keyword Analysis',
      api_name: 'PopularSitesForQuery',
      api_description: '',
      required_parameters: [{ name: 'q', type: 'STRING', description: '', default: '' }],
      optional_parameters: [],
    },
  ],
};

const start: LLMMessage[] = [
  {
    role: 'system',
    content: 'You are AutoGPT, with a function call to actually excute your step.',
  },
  { role: 'user', content: 'Suggest sites.' },
];

async function engineMessage(call: ToolCall, tools: readonly Tool[]): Promise<LLMMessage> {
  const runner = new ToolRunner({
    validator: new ArgumentValidator(),
    emitter: new SkeinEmitter(),
  });
  const result = await runner.run(call, {
    threadId: 't',
    nodeId: 'agent',
    signal: new AbortController().signal,
    variables: {},
    tools: new Map(tools.map((tool) => [tool.name, tool])),
  });
  return result.message;
}

/** The `Function:` line the model reads after the call, as the next prompt shows it. */
async function functionTurn(
  call: ToolCall,
  tools: readonly Tool[],
  options: { ensureAscii?: boolean } = {},
): Promise<string> {
  const prompts: string[] = [];
  const model = createReActLLMClient({
    complete: ({ prompt }) => {
      prompts.push(prompt);
      return 'Thought: \nAction: Finish\nAction Input: {"return_type": "give_up_and_restart"}';
    },
    ...options,
  });
  const assistant: LLMMessage = { role: 'assistant', content: '', toolCalls: [call] };
  await model.generate({
    threadId: 't',
    nodeId: 'agent',
    messages: [...start, assistant, await engineMessage(call, tools)],
    tools,
  });
  const prompt = prompts[0] ?? '';
  const line = prompt.slice(prompt.lastIndexOf('\nFunction: ') + '\nFunction: '.length);
  expect(line.endsWith('\nAssistant:\n')).toBe(true);
  return line.slice(0, -'\nAssistant:\n'.length);
}

const lookup = (overrides: Partial<Tool> = {}): Tool => ({
  name: 'lookup_for_x',
  description: 'Looks up.',
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  execute: async () => 'found',
  ...overrides,
});

const call = (name: string, args = '{"q": "cakes"}'): ToolCall => ({
  id: 'c1',
  name,
  arguments: args,
});

describe('failures decided inside the engine, as the model reads them', () => {
  it('an unreachable ToolBench server', async () => {
    const server = await startToolBenchServer();
    const url = server.url;
    await server.close();
    const tools = toolsFromQuery(query, { client: new ToolBenchClient({ url }) });
    const line = await functionTurn(call(tools[0]!.name), tools);
    expect(line).toMatch(
      /^\{"error": "Cannot reach the ToolBench server at .*", "response": ""\}$/,
    );
    expect(JSON.parse(line)).toEqual({
      error: expect.stringMatching(`^Cannot reach the ToolBench server at ${url}: `),
      response: '',
    });
  });

  it('a tool timeout, in the reference words for one', async () => {
    const slow = lookup({ timeoutMs: 20, execute: () => new Promise<never>(() => {}) });
    expect(await functionTurn(call('lookup_for_x'), [slow])).toBe(
      '{"error": "Timeout error...", "response": ""}',
    );
  });

  it('arguments that do not match the schema', async () => {
    const line = await functionTurn(call('lookup_for_x', '{"q": 1}'), [lookup()]);
    const { error } = JSON.parse(line) as { error: string };
    expect(error).toMatch(/^Arguments for tool "lookup_for_x" are invalid: /);
    expect(line).toBe(`{"error": ${JSON.stringify(error)}, "response": ""}`);
  });

  it('an unknown tool, in the reference words for one', async () => {
    expect(await functionTurn(call('ghost_for_x'), [lookup()])).toBe(
      '{"error": "No such function name: ghost_for_x", "response": ""}',
    );
  });

  it('a tool that throws: its message, non-ASCII as it is unless ensureAscii', async () => {
    const failing = lookup({
      execute: async () => {
        throw new Error('café indisponible');
      },
    });
    expect(await functionTurn(call('lookup_for_x'), [failing])).toBe(
      '{"error": "café indisponible", "response": ""}',
    );
    expect(await functionTurn(call('lookup_for_x'), [failing], { ensureAscii: true })).toBe(
      '{"error": "caf\\u00e9 indisponible", "response": ""}',
    );
  });

  it("leaves a tool's own results, failed ones included, exactly as the tool wrote them", async () => {
    const plain = lookup({
      execute: async () => toolOutput({ content: 'plain text', isError: true }),
    });
    expect(await functionTurn(call('lookup_for_x'), [plain])).toBe('plain text');
    const [benchTool] = toolsFromQuery(query, {
      client: {
        call: async () => ({
          observation: '{"error": "Message error...", "response": ""}',
          status: 11,
        }),
      },
    });
    expect(await functionTurn(call(benchTool!.name), [benchTool!])).toBe(
      '{"error": "Message error...", "response": ""}',
    );
  });

  it('shows a call the client could not make by its own error text, even without the call in view', async () => {
    const error = '{"error": "No such function name: weather_for_x", "response": ""}';
    const message = await engineMessage({ ...call('weather_for_x'), error }, []);
    const prompts: string[] = [];
    await createReActLLMClient({
      complete: ({ prompt }) => {
        prompts.push(prompt);
        return 'Thought: \nAction: Finish\nAction Input: {"return_type": "give_up_and_restart"}';
      },
    }).generate({ threadId: 't', nodeId: 'agent', messages: [...start, message], tools: [] });
    expect(prompts[0]?.endsWith(`Function: ${error}\nAssistant:\n`)).toBe(true);
  });

  it('exports those failures in the answer file as the model read them', async () => {
    const slow = lookup({ timeoutMs: 20, execute: () => new Promise<never>(() => {}) });
    const assistant: LLMMessage = {
      role: 'assistant',
      content: '',
      toolCalls: [call('lookup_for_x')],
    };
    const answer = toConvertedAnswer({
      query: 'q',
      tools: [slow],
      messages: [...start, assistant, await engineMessage(call('lookup_for_x'), [slow])],
    });
    const tool = answer.answer.answer_details[0]?.next[0]?.next[0]?.message;
    expect(tool).toEqual({
      name: 'lookup_for_x',
      arguments: '{"q": "cakes"}',
      response: '{"error": "Timeout error...", "response": ""}',
    });
  });
});
