import { ConversationError } from '@skein/conversation';
import type { LLMMessage, LLMStreamEvent, ToolSpec } from '@skein/spec';
import { ToolNameCodec } from '@skein/spec';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@skein/testkit';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from './create-openai-client.js';

const NINETY =
  'crm.customers v2.lookup customer by email address.and return the full account profile now!';
const tools: ToolSpec[] = [
  { name: NINETY, description: 'Look a customer up', parameters: { type: 'object' } },
  { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } },
];

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface SentBody {
  stream: boolean;
  stream_options?: { include_usage: boolean };
  tools?: { function: { name: string } }[];
  messages: {
    role: string;
    tool_calls?: { id: unknown; function: { name: string } }[];
    tool_call_id?: unknown;
  }[];
}

const sent = (s: OpenAICompatibleServer, i: number) => s.requests[i]!.body as SentBody;

function request(messages: LLMMessage[], toolSpecs: ToolSpec[] = tools) {
  return { threadId: 't', nodeId: 'n', messages, tools: toolSpecs };
}

/** Every tool-call id and tool_call_id the server received. */
function sentIds(s: OpenAICompatibleServer): unknown[] {
  return s.requests.flatMap((r) =>
    (r.body as SentBody).messages.flatMap((m) => [
      ...(m.tool_calls ?? []).map((c) => c.id),
      ...(m.role === 'tool' ? [m.tool_call_id] : []),
    ]),
  );
}

describe('createOpenAIClient', () => {
  it('is an LLMClient named after its model', () => {
    const client = createOpenAIClient({
      baseURL: 'http://127.0.0.1:9/v1',
      apiKey: 'k',
      model: 'gpt-4o-mini',
    });
    expect(client.name).toBe('openai:gpt-4o-mini');
    expect(client.toolNames).toBeInstanceOf(ToolNameCodec);
  });

  it('round-trips a 90-character tool name: the model sees the encoded name, the caller the original', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        (req) => ({
          content: 'Looking it up.',
          toolCalls: [
            {
              id: null,
              name: (req.body as SentBody).tools![0]!.function.name,
              arguments: '{"email":"a@b.c"}',
            },
          ],
          usage: { promptTokens: 10, completionTokens: 5 },
        }),
        { content: 'Found it.' },
      ],
    });
    const client = createOpenAIClient({
      baseURL: server.url,
      apiKey: 'k',
      model: 'm',
      maxRetries: 0,
    });
    const events: LLMStreamEvent[] = [];
    const first = await client.generate(request([{ role: 'user', content: 'find a@b.c' }]), {
      onEvent: (e) => events.push(e),
    });
    const encoded = sent(server, 0).tools![0]!.function.name;
    expect(encoded).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(encoded).toHaveLength(64);
    expect(sent(server, 0).tools![1]!.function.name).toBe('get_weather');
    expect(client.toolNames.decode(encoded)).toBe(NINETY);

    const call = first.message.toolCalls![0]!;
    expect(call.name).toBe(NINETY);
    expect(call.id).toMatch(/^call_/);
    expect(first.message.metadata).toMatchObject({ encodedToolNames: { [call.id]: encoded } });
    expect(first.finishReason).toBe('tool_calls');
    expect(first.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15 });
    expect(events.filter((e) => e.type === 'tool-call-delta' && e.name !== undefined)).toEqual([
      { type: 'tool-call-delta', index: 0, name: NINETY, argumentsDelta: '{"em' },
    ]);
    expect(events.some((e) => e.type === 'warning' && e.code === 'TOOL_CALL_ID_GENERATED')).toBe(
      true,
    );
    expect(events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('')).toBe(
      'Looking it up.',
    );

    // The next turn sends the call back under the encoded name with the generated id.
    await client.generate(
      request([
        { role: 'user', content: 'find a@b.c' },
        first.message,
        { role: 'tool', content: '{"name":"A"}', toolCallId: call.id, name: NINETY },
      ]),
    );
    const second = sent(server, 1);
    expect(second.messages[1]!.tool_calls![0]).toMatchObject({
      id: call.id,
      function: { name: encoded },
    });
    expect(second.messages[2]).toEqual({
      role: 'tool',
      content: '{"name":"A"}',
      tool_call_id: call.id,
    });
    const ids = sentIds(server);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(typeof id === 'string' && id.length > 0).toBe(true);
  });

  it('asks for usage when streaming and sends the request to the given model', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'hi' }] });
    const client = createOpenAIClient({
      baseURL: server.url,
      apiKey: 'k',
      model: 'm',
      parallelToolCalls: true,
    });
    const response = await client.generate({
      ...request([{ role: 'user', content: 'x' }]),
      model: 'override',
    });
    expect(response).toEqual({
      message: { role: 'assistant', content: 'hi' },
      finishReason: 'stop',
      model: 'override',
    });
    expect(server.requests[0]!.body).toMatchObject({
      model: 'override',
      stream: true,
      stream_options: { include_usage: true },
      parallel_tool_calls: true,
    });
  });

  it('works without streaming, through the same assembly rules', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        {
          content: 'ok',
          reasoning: 'hm',
          toolCalls: [
            { id: null, name: 'get_weather', arguments: "{city: 'Oslo'}" },
            { id: 'c2', name: 'get_weather', arguments: '{}' },
          ],
          usage: { promptTokens: 2, completionTokens: 3 },
        },
      ],
    });
    const client = createOpenAIClient({
      baseURL: server.url,
      apiKey: 'k',
      model: 'm',
      stream: false,
    });
    const events: LLMStreamEvent[] = [];
    const response = await client.generate(request([{ role: 'user', content: 'x' }]), {
      onEvent: (e) => events.push(e),
    });
    expect(sent(server, 0).stream).toBe(false);
    expect(sent(server, 0).stream_options).toBeUndefined();
    expect(response.message.content).toBe('ok');
    expect(response.message.metadata).toMatchObject({ reasoning: 'hm' });
    expect(response.message.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city": "Oslo"}' },
      { id: 'c2', name: 'get_weather', arguments: '{}' },
    ]);
    expect(response.usage).toEqual({ promptTokens: 2, completionTokens: 3, totalTokens: 5 });
    expect(
      events.filter((e) => e.type === 'warning').map((e) => (e as { code: string }).code),
    ).toEqual(['TOOL_CALL_ID_GENERATED', 'TOOL_CALL_ARGUMENTS_REPAIRED']);
  });

  it('uses a given OpenAI instance', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'via client' }] });
    const openai = new OpenAI({ baseURL: server.url, apiKey: 'own-key' });
    const client = createOpenAIClient({ client: openai, model: 'm' });
    expect(client.openai).toBe(openai);
    expect((await client.generate(request([{ role: 'user', content: 'x' }]))).message.content).toBe(
      'via client',
    );
    expect(server.requests[0]!.headers.authorization).toBe('Bearer own-key');
  });

  it('sends a nameless call back under the placeholder name, with its error answer', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        {
          chunks: [
            {
              choices: [
                {
                  index: 0,
                  delta: { tool_calls: [{ index: 0, id: 'c1', function: { arguments: '{}' } }] },
                },
              ],
            },
          ],
        },
        { content: 'sorry' },
      ],
    });
    const client = createOpenAIClient({ baseURL: server.url, apiKey: 'k', model: 'm' });
    const events: LLMStreamEvent[] = [];
    const first = await client.generate(request([{ role: 'user', content: 'x' }]), {
      onEvent: (e) => events.push(e),
    });
    const call = first.message.toolCalls![0]!;
    expect(call).toMatchObject({
      id: 'c1',
      name: '',
      error: expect.stringContaining('without giving its name'),
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'warning', code: 'TOOL_CALL_NAME_MISSING' }),
    );
    await client.generate(
      request([
        { role: 'user', content: 'x' },
        first.message,
        { role: 'tool', content: call.error!, toolCallId: 'c1' },
      ]),
    );
    expect(sent(server, 1).messages[1]!.tool_calls![0]).toMatchObject({
      id: 'c1',
      function: { name: 'skein_unnamed_tool' },
    });
  });

  it('rejects a conversation with a null tool-call id before sending anything', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'never' }] });
    const client = createOpenAIClient({ baseURL: server.url, apiKey: 'k', model: 'm' });
    const bad = [
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: null, name: 'get_weather', arguments: '{}' }],
      },
    ] as unknown as LLMMessage[];
    const error = await client.generate(request(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConversationError);
    expect(error).toMatchObject({ code: 'INVALID_CONVERSATION', messageIndex: 1 });
    expect(server.requests).toHaveLength(0);
  });

  it('rejects bad options with typed errors', () => {
    expect(() => createOpenAIClient({ model: '' })).toThrow(/model/);
    expect(() => createOpenAIClient({ model: 'm', apiKey: 'k', timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
    expect(() => createOpenAIClient({ model: 'm', apiKey: 'k', maxRetries: -1 })).toThrow(
      /maxRetries/,
    );
  });
});
