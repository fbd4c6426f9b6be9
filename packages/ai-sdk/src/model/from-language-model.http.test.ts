import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LLMRequest, LLMStreamEvent } from '@skein/spec';
import {
  type OpenAIServerQuirks,
  type ScriptStep,
  startOpenAICompatibleServer,
} from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { fromLanguageModel } from './from-language-model.js';

// A real provider package (@ai-sdk/openai-compatible) over HTTP against the testkit's server on
// 127.0.0.1, with the stream quirks real servers have.

const LONG = 'billing.invoices v3 / find unpaid invoices for a customer and sum what they owe';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function clientFor(script: ScriptStep[], quirks: OpenAIServerQuirks = {}) {
  const server = await startOpenAICompatibleServer({ script, quirks });
  closers.push(() => server.close());
  const provider = createOpenAICompatible({
    name: 'testkit',
    baseURL: server.url,
    apiKey: 'test',
    includeUsage: true,
  });
  const client = fromLanguageModel(provider.chatModel('m'), { encodeToolNames: true });
  return { client, server };
}

const request = (fields: Partial<LLMRequest> = {}): LLMRequest => ({
  threadId: 't',
  nodeId: 'n',
  messages: [{ role: 'user', content: 'Who owes what?' }],
  tools: [{ name: LONG, description: 'Unpaid invoices', parameters: { type: 'object' } }],
  ...fields,
});

describe('fromLanguageModel over @ai-sdk/openai-compatible', () => {
  it.each<[string, OpenAIServerQuirks]>([
    ['a null id on the first fragment', { nullIdOnFirstChunk: true }],
    ['the id only on a later fragment', { idOnLaterChunk: true }],
    ['id and name repeated on every fragment', { repeatIdAndName: true }],
    ['arguments whole in one fragment', { wholeArguments: true }],
    ['indexes starting at 1', { indexBase: 1 }],
    ['finish_reason stop with tool calls', { stopWithToolCalls: true }],
    ['usage in a last chunk of its own', { usageOnlyFinalChunk: true }],
  ])('assembles two calls with %s', async (_, quirks) => {
    const { client } = await clientFor(
      [
        () => ({
          content: 'Checking.',
          toolCalls: [
            { id: 'call_a', name: client.toolNames!.encode(LONG), arguments: { customer: 'ada' } },
            { id: 'call_b', name: 'get_rate', arguments: { currency: 'EUR' } },
          ],
          usage: { promptTokens: 30, completionTokens: 12 },
        }),
      ],
      { argumentsChunkSize: 3, ...quirks },
    );
    const events: LLMStreamEvent[] = [];
    const response = await client.generate(request(), { onEvent: (e) => events.push(e) });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ promptTokens: 30, completionTokens: 12, totalTokens: 42 });
    expect(response.message.content).toBe('Checking.');
    const calls = response.message.toolCalls!;
    expect(calls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: LONG, args: '{"customer":"ada"}' },
      { name: 'get_rate', args: '{"currency":"EUR"}' },
    ]);
    // When the id comes after the name, the provider package makes one up (it has already handed
    // the call on): Skein gets a usable id either way, never a null one.
    const lateId = quirks.nullIdOnFirstChunk || quirks.idOnLaterChunk;
    if (lateId) for (const call of calls) expect(call.id).toMatch(/^\S+$/);
    else expect(calls.map((c) => c.id)).toEqual(['call_a', 'call_b']);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    for (const call of response.message.toolCalls!) {
      const deltas = events.flatMap((e) =>
        e.type === 'tool-call-delta' && e.id === call.id ? [e] : [],
      );
      expect(deltas.map((d) => d.argumentsDelta).join('')).toBe(call.arguments);
    }
  });

  it('never sends a null id back: a call the server gave no id gets one', async () => {
    const { client, server } = await clientFor([
      () => ({ toolCalls: [{ id: null, name: 'get_rate', arguments: { currency: 'EUR' } }] }),
      { content: 'Done.' },
    ]);
    const first = await client.generate(request());
    const call = first.message.toolCalls![0]!;
    expect(call.id).toMatch(/\S/);
    await client.generate(
      request({
        messages: [
          { role: 'user', content: 'Rate?' },
          first.message,
          { role: 'tool', content: '1.08', toolCallId: call.id, name: 'get_rate' },
        ],
      }),
    );
    const body = server.requests[1]!.body as unknown as {
      messages: { tool_calls?: { id: unknown }[]; tool_call_id?: unknown }[];
    };
    expect(body.messages[1]!.tool_calls![0]!.id).toBe(call.id);
    expect(body.messages[2]!.tool_call_id).toBe(call.id);
  });

  it('sends encoded tool names and the response format the provider takes', async () => {
    const { client, server } = await clientFor([{ content: '{"ok":true}' }]);
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    await client.generate(request({ responseFormat: { type: 'json', schema, name: 'verdict' } }));
    const body = server.requests[0]!.body as unknown as Record<string, unknown> & {
      tools: { function: { name: string } }[];
    };
    expect(body.tools[0]!.function.name).toBe(client.toolNames!.encode(LONG));
    expect(body.tools[0]!.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // openai-compatible models that do not declare structured outputs ask for a JSON object.
    expect(body.response_format).toEqual({ type: 'json_object' });
  });

  it('reports an in-band error chunk as PROVIDER_STREAM_ERROR', async () => {
    const { client } = await clientFor([{ content: 'Hello there, this is long.' }], {
      errorChunk: { afterChunks: 2, error: { message: 'model overloaded', type: 'server_error' } },
    });
    const error = await client.generate(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_STREAM_ERROR', retryable: false });
    expect((error as Error).message).toContain('model overloaded');
  });

  it('reports a dropped connection as a retryable failure', async () => {
    const { client } = await clientFor([{ content: 'Hello there, this is a long answer.' }], {
      dropAfterChunks: 3,
    });
    const error = await client.generate(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true });
    expect(['STREAM_INTERRUPTED', 'PROVIDER_STREAM_ERROR']).toContain(
      (error as { code: string }).code,
    );
  });

  it.each([
    [429, true],
    [500, true],
    [401, false],
  ])('takes retryable from the APICallError of HTTP %i', async (status, retryable) => {
    const { client } = await clientFor([{ content: 'ok' }], {
      failBeforeSuccess: { status, times: 1 },
    });
    const error = await client.generate(request()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'PROVIDER_REQUEST_FAILED',
      retryable,
      statusCode: status,
      providerErrorName: 'AI_APICallError',
    });
  });
});
