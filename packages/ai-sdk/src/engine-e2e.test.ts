import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { startOpenAICompatibleServer } from '@skein/testkit';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { fromLanguageModel } from './model/from-language-model.js';
import { finishPart, streamOf, textParts, usageV3 } from './test-support/stream-parts.js';

// Whole engine runs with an AI SDK model as the LLMClient: an LLM node that calls a tool over a
// real provider package on 127.0.0.1, and an LLM node with structured output.

const LONG = 'crm.customers v2 / look up a customer by email and return the account profile';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface Body {
  messages: {
    role: string;
    tool_call_id?: string;
    tool_calls?: { id: string; function: { name: string } }[];
  }[];
  tools?: { function: { name: string } }[];
}

describe('fromLanguageModel in a SkeinEngine', () => {
  it('runs an LLM node that calls a tool by its original name, streaming tokens', async () => {
    const ran: unknown[] = [];
    const lookup: Tool<{ email: string }> = {
      name: LONG,
      description: 'Customer profile by email',
      parameters: {
        type: 'object',
        properties: { email: { type: 'string' } },
        required: ['email'],
      },
      execute: (args) => {
        ran.push(args);
        return { name: 'Ada Lovelace', plan: 'team' };
      },
    };
    const server = await startOpenAICompatibleServer({
      quirks: { nullIdOnFirstChunk: true, argumentsChunkSize: 3 },
      script: (request) => {
        const body = request.body as unknown as Body;
        if (body.messages.at(-1)!.role === 'tool')
          return {
            content: 'Ada Lovelace is on the team plan.',
            usage: { promptTokens: 40, completionTokens: 9 },
          };
        return {
          content: 'Looking her up.',
          toolCalls: [
            { name: body.tools![0]!.function.name, arguments: { email: 'ada@example.com' } },
          ],
          usage: { promptTokens: 30, completionTokens: 12 },
        };
      },
    });
    closers.push(() => server.close());
    const provider = createOpenAICompatible({
      name: 'testkit',
      baseURL: server.url,
      apiKey: 'k',
      includeUsage: true,
    });
    const llm = fromLanguageModel(provider.chatModel('m'), { encodeToolNames: true });
    const engine = new SkeinEngine({ llm });
    engine.registerTool(lookup);
    engine.registerWorkflow(
      new WorkflowBuilder('support', '1')
        .start()
        .llm('agent', {
          prompt: 'Who is ada@example.com?',
          tools: [LONG],
          outputVariable: 'answer',
        })
        .end('end', { output: 'vars.answer' })
        .chain('start', 'agent', 'end')
        .build(),
    );
    const tokens: string[] = [];
    engine.events.on('llm:token', (e) => tokens.push(e.delta));
    const { result } = await engine.run('support');
    expect(result.error?.message).toBeUndefined();
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe('Ada Lovelace is on the team plan.');
    expect(ran).toEqual([{ email: 'ada@example.com' }]);
    expect(tokens.join('')).toBe('Looking her up.Ada Lovelace is on the team plan.');
    expect(result.usage).toMatchObject({ promptTokens: 70, completionTokens: 21 });
    // The tool result went back under the id the call was stored with, and the encoded name.
    const second = server.requests[1]!.body as unknown as Body;
    const assistant = second.messages.find((m) => m.role === 'assistant')!;
    const tool = second.messages.find((m) => m.role === 'tool')!;
    expect(tool.tool_call_id).toBe(assistant.tool_calls![0]!.id);
    expect(assistant.tool_calls![0]!.function.name).toBe(llm.toolNames!.encode(LONG));
  });

  it('runs an LLM node with output: { schema }, asking again after a reply that does not match', async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        streamOf([...textParts('{"city":"Oslo"}'), finishPart('stop', usageV3(5, 5))]),
        streamOf([...textParts('{"city":"Oslo","celsius":4}'), finishPart('stop', usageV3(5, 7))]),
      ],
    });
    const engine = new SkeinEngine({ llm: fromLanguageModel(model) });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
    };
    engine.registerWorkflow(
      new WorkflowBuilder('extract', '1')
        .start()
        .llm('extract', {
          prompt: 'Oslo is at 4 degrees.',
          output: { schema, name: 'weather' },
          retry: { maxAttempts: 2, initialDelayMs: 1 },
        })
        .end('end')
        .chain('start', 'extract', 'end')
        .build(),
    );
    const { result } = await engine.run('extract');
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(model.doStreamCalls).toHaveLength(2);
    expect(model.doStreamCalls[0]!.responseFormat).toEqual({
      type: 'json',
      schema,
      name: 'weather',
    });
  });
});
