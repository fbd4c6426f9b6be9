import type {
  LanguageModelV2,
  LanguageModelV2StreamPart,
  LanguageModelV3CallOptions,
} from '@ai-sdk/provider';
import {
  type LLMMessage,
  type LLMRequest,
  type LLMStreamEvent,
  ProviderError,
  SkeinError,
} from '@skein/spec';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { AiSdkModelError } from '../errors/ai-sdk-model-error.js';
import { AiSdkProviderError } from '../errors/ai-sdk-provider-error.js';
import { finishPart, streamOf, textParts, usageV3 } from '../test-support/stream-parts.js';
import { fromLanguageModel } from './from-language-model.js';

const LONG = 'crm.customers v2/lookup-by-email.and-return-the-full-account-profile';

function request(fields: Partial<LLMRequest> = {}): LLMRequest {
  return {
    threadId: 't',
    nodeId: 'n',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    ...fields,
  };
}

function mockOf(parts: Parameters<typeof streamOf>[0]) {
  return new MockLanguageModelV3({ doStream: async () => streamOf(parts) });
}

async function generate(model: MockLanguageModelV3, req = request()) {
  const events: LLMStreamEvent[] = [];
  const response = await fromLanguageModel(model).generate(req, { onEvent: (e) => events.push(e) });
  return { response, events };
}

describe('fromLanguageModel: which models it takes', () => {
  it('takes a v2 model object (ai 5 providers), built by hand', async () => {
    const calls: unknown[] = [];
    const parts: LanguageModelV2StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Hello ' },
      { type: 'text-delta', id: 'a', delta: 'there' },
      { type: 'text-end', id: 'a' },
      {
        type: 'finish',
        finishReason: 'stop',
        usage: {
          inputTokens: 7,
          outputTokens: 2,
          totalTokens: 9,
          cachedInputTokens: 3,
          reasoningTokens: 1,
        },
      },
    ];
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'hand',
      modelId: 'v2-model',
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error('not used')),
      doStream: async (options) => {
        calls.push(options);
        return { stream: simulateReadableStream({ chunks: parts }) };
      },
    };
    const client = fromLanguageModel(v2);
    expect(client.specification).toBe('v2');
    expect(client.name).toBe('ai-sdk:hand:v2-model');
    const response = await client.generate(request({ maxTokens: 20 }));
    expect(response.message).toEqual({ role: 'assistant', content: 'Hello there' });
    expect(response.usage).toEqual({
      promptTokens: 7,
      completionTokens: 2,
      totalTokens: 9,
      cachedPromptTokens: 3,
      reasoningTokens: 1,
    });
    expect(calls[0]).toMatchObject({ maxOutputTokens: 20, prompt: [{ role: 'user' }] });
  });

  it.each([
    [
      { specificationVersion: 'v4', provider: 'p', modelId: 'm', doStream: () => {} },
      'specificationVersion "v4"',
    ],
    [
      { specificationVersion: 'v1', provider: 'p', modelId: 'm', doStream: () => {} },
      'specificationVersion "v1"',
    ],
    [{ specificationVersion: 'v3', provider: 'p', modelId: 'm' }, "'v3' without doStream"],
    ['gpt-4o', 'a string'],
    [null, 'null'],
    [{ provider: 'p' }, 'without specificationVersion'],
  ])('refuses %j with UNSUPPORTED_MODEL naming what it supports', (model, got) => {
    let thrown: unknown;
    try {
      fromLanguageModel(model as never);
    } catch (error) {
      thrown = error;
    }
    expect(AiSdkModelError.isInstance(thrown)).toBe(true);
    const error = thrown as AiSdkModelError;
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_MODEL',
      retryable: false,
      supported: ['v2', 'v3'],
    });
    expect(error.got).toContain(got);
    expect(error.message).toContain("specificationVersion 'v2' or 'v3'");
  });
});

describe('fromLanguageModel: the stream', () => {
  it('takes a late name (only on tool-call), a missing id, and arguments in many pieces', async () => {
    const { response, events } = await generate(
      mockOf([
        { type: 'tool-input-start', id: '', toolName: '' },
        { type: 'tool-input-delta', id: '', delta: '{"ci' },
        { type: 'tool-input-delta', id: '', delta: 'ty":"Os' },
        { type: 'tool-input-delta', id: '', delta: 'lo"}' },
        { type: 'tool-input-end', id: '' },
        { type: 'tool-call', toolCallId: '', toolName: 'get_weather', input: '{"city":"Oslo"}' },
        finishPart('tool-calls', usageV3(1, 1)),
      ]),
    );
    const [call] = response.message.toolCalls!;
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    expect(call!.id).toMatch(/^call_[0-9a-f]{24}$/);
    const deltas = events.flatMap((e) => (e.type === 'tool-call-delta' ? [e] : []));
    expect(deltas.map((d) => d.argumentsDelta).join('')).toBe('{"city":"Oslo"}');
    expect(new Set(deltas.map((d) => d.id))).toEqual(new Set([call!.id]));
    expect(events.find((e) => e.type === 'warning')).toMatchObject({
      code: 'TOOL_CALL_ID_GENERATED',
    });
  });

  it('keeps parallel calls apart, in the order they started, with their provider metadata', async () => {
    const { response } = await generate(
      mockOf([
        { type: 'tool-input-start', id: 'a', toolName: 'one' },
        { type: 'tool-input-start', id: 'b', toolName: 'two' },
        { type: 'tool-input-delta', id: 'b', delta: '{"y":' },
        { type: 'tool-input-delta', id: 'a', delta: '{"x":1}' },
        { type: 'tool-input-delta', id: 'b', delta: '2}' },
        {
          type: 'tool-call',
          toolCallId: 'b',
          toolName: 'two',
          input: '{"y":2}',
          providerMetadata: { g: { sig: 's' } },
        },
        { type: 'tool-call', toolCallId: 'a', toolName: 'one', input: '{"x":1}' },
        finishPart('stop', usageV3(1, 1)),
      ]),
    );
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.toolCalls).toEqual([
      { id: 'a', name: 'one', arguments: '{"x":1}' },
      { id: 'b', name: 'two', arguments: '{"y":2}' },
    ]);
    expect(response.message.metadata).toEqual({
      aiSdkToolCallMetadata: { b: { g: { sig: 's' } } },
    });
  });

  it('marks a call without a name or with broken arguments so the engine answers it', async () => {
    const { response, events } = await generate(
      mockOf([
        { type: 'tool-input-start', id: 'a', toolName: '' },
        { type: 'tool-input-delta', id: 'a', delta: '{"x":1}' },
        { type: 'tool-input-start', id: 'b', toolName: 'calc' },
        { type: 'tool-input-delta', id: 'b', delta: '{"x":' },
        finishPart('tool-calls', usageV3(1, 1)),
      ]),
    );
    const [nameless, broken] = response.message.toolCalls!;
    expect(nameless).toMatchObject({
      id: 'a',
      name: '',
      error: expect.stringMatching(/without a tool name/),
    });
    expect(broken).toMatchObject({
      id: 'b',
      name: 'calc',
      arguments: '{"x":',
      error: expect.stringMatching(/not valid JSON/),
    });
    expect(
      events.some((e) => e.type === 'warning' && e.code === 'TOOL_CALL_ARGUMENTS_INVALID'),
    ).toBe(true);
  });

  it('leaves out calls the provider runs itself', async () => {
    const { response } = await generate(
      mockOf([
        { type: 'tool-input-start', id: 'w', toolName: 'web_search', providerExecuted: true },
        { type: 'tool-input-delta', id: 'w', delta: '{}' },
        {
          type: 'tool-call',
          toolCallId: 'w',
          toolName: 'web_search',
          input: '{}',
          providerExecuted: true,
        },
        { type: 'tool-result', toolCallId: 'w', toolName: 'web_search', result: { hits: 1 } },
        ...textParts('Found it.'),
        finishPart('stop', usageV3(1, 1)),
      ]),
    );
    expect(response.message).toEqual({ role: 'assistant', content: 'Found it.' });
    expect(response.finishReason).toBe('stop');
  });

  it('keeps reasoning on the message, and sends back only the reasoning the provider signed', async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        streamOf([
          { type: 'reasoning-start', id: 'r1' },
          { type: 'reasoning-delta', id: 'r1', delta: 'Think ' },
          { type: 'reasoning-delta', id: 'r1', delta: 'hard.' },
          {
            type: 'reasoning-end',
            id: 'r1',
            providerMetadata: { anthropic: { signature: 'sig' } },
          },
          { type: 'reasoning-start', id: 'r2' },
          { type: 'reasoning-delta', id: 'r2', delta: ' Unsigned.' },
          { type: 'reasoning-end', id: 'r2' },
          ...textParts('Done.'),
          finishPart('stop', {
            inputTokens: { total: 10, noCache: 4, cacheRead: 6, cacheWrite: undefined },
            outputTokens: { total: 5, text: 2, reasoning: 3 },
          }),
        ]),
        streamOf([...textParts('Again.'), finishPart('stop', usageV3(1, 1))]),
      ],
    });
    const client = fromLanguageModel(model);
    const events: LLMStreamEvent[] = [];
    const first = await client.generate(request(), { onEvent: (e) => events.push(e) });
    expect(first.message.metadata).toEqual({
      reasoning: 'Think hard. Unsigned.',
      aiSdkReasoning: [
        { text: 'Think hard.', providerMetadata: { anthropic: { signature: 'sig' } } },
      ],
    });
    expect(
      events
        .filter((e) => e.type === 'reasoning-delta')
        .map((e) => (e as { delta: string }).delta)
        .join(''),
    ).toBe('Think hard. Unsigned.');
    expect(first.usage).toEqual({
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      cachedPromptTokens: 6,
      reasoningTokens: 3,
    });
    const messages: LLMMessage[] = [
      { role: 'user', content: 'hi' },
      first.message,
      { role: 'user', content: 'more' },
    ];
    await client.generate(request({ messages }));
    const sent = model.doStreamCalls[1]!.prompt[1]!;
    expect(sent).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'Think hard.',
          providerOptions: { anthropic: { signature: 'sig' } },
        },
        { type: 'text', text: 'Done.' },
      ],
    });
  });

  it('turns an error part into PROVIDER_STREAM_ERROR with the provider’s retryable', async () => {
    for (const isRetryable of [true, false, undefined]) {
      const error = await fromLanguageModel(
        mockOf([
          ...textParts('Hi'),
          { type: 'error', error: { message: 'overloaded', isRetryable } },
        ]),
      )
        .generate(request())
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(AiSdkProviderError.isInstance(error)).toBe(true);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'PROVIDER_STREAM_ERROR',
        retryable: isRetryable === true,
      });
      expect((error as Error).message).toContain('overloaded');
    }
  });

  it('calls a stream that ends without finish interrupted, and retryable', async () => {
    const error = await fromLanguageModel(mockOf(textParts('Hi')))
      .generate(request())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STREAM_INTERRUPTED', retryable: true });
    expect(SkeinError.isInstance(error)).toBe(true);
  });

  it('passes provider warnings on as warning events', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            {
              type: 'stream-start',
              warnings: [{ type: 'unsupported', feature: 'responseFormat' }],
            },
            ...textParts('{}'),
            finishPart('stop', usageV3(1, 1)),
          ],
        }),
      }),
    });
    const { events } = await generate(model);
    expect(events[0]).toMatchObject({
      type: 'warning',
      code: 'PROVIDER_WARNING',
      details: { warning: { type: 'unsupported', feature: 'responseFormat' } },
    });
  });
});

describe('fromLanguageModel: the call', () => {
  it('sends the conversation, tools, choice, settings, response format and the signal', async () => {
    const model = mockOf([...textParts('ok'), finishPart('stop', usageV3(1, 1))]);
    const client = fromLanguageModel(model, { encodeToolNames: true });
    const encoded = client.toolNames!.encode(LONG);
    expect(encoded).not.toBe(LONG);
    const controller = new AbortController();
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    await client.generate(
      request({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Look ada up.' },
          {
            role: 'assistant',
            content: 'Looking.',
            toolCalls: [
              { id: 'c1', name: LONG, arguments: '{"email":"ada@example.com"}' },
              { id: 'c2', name: '', arguments: '{', error: 'no name' },
            ],
          },
          { role: 'tool', content: '{"plan":"team"}', toolCallId: 'c1', name: LONG },
          { role: 'tool', content: 'no name', toolCallId: 'c2', metadata: { isError: true } },
        ],
        tools: [
          { name: LONG, description: 'Look up', parameters: { type: 'object' }, strict: true },
        ],
        toolChoice: { name: LONG },
        temperature: 0.2,
        maxTokens: 100,
        stop: ['END'],
        responseFormat: { type: 'json', schema, name: 'verdict' },
        providerOptions: { openai: { user: 'u1' } },
      }),
      { signal: controller.signal },
    );
    const sent = model.doStreamCalls[0]! as LanguageModelV3CallOptions;
    expect(sent.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Look ada up.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: encoded,
            input: { email: 'ada@example.com' },
          },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'skein_unnamed_tool', input: '{' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: encoded,
            output: { type: 'text', value: '{"plan":"team"}' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'skein_unnamed_tool',
            output: { type: 'error-text', value: 'no name' },
          },
        ],
      },
    ]);
    expect(sent.tools).toEqual([
      {
        type: 'function',
        name: encoded,
        description: 'Look up',
        inputSchema: { type: 'object' },
        strict: true,
      },
    ]);
    expect(sent.toolChoice).toEqual({ type: 'tool', toolName: encoded });
    expect(sent).toMatchObject({
      temperature: 0.2,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      responseFormat: { type: 'json', schema, name: 'verdict' },
      providerOptions: { openai: { user: 'u1' } },
    });
    expect(sent.abortSignal).toBe(controller.signal);
  });

  it('decodes encoded names in the answer, and keeps a name the codec never made', async () => {
    const client = fromLanguageModel(
      new MockLanguageModelV3({
        doStream: async () =>
          streamOf([
            {
              type: 'tool-call',
              toolCallId: 'a',
              toolName: client.toolNames!.encode(LONG),
              input: '{}',
            },
            { type: 'tool-call', toolCallId: 'b', toolName: 'made_up', input: '{}' },
            finishPart('tool-calls', usageV3(1, 1)),
          ]),
      }),
      { encodeToolNames: { limit: 32 } },
    );
    const { message } = await client.generate(request());
    expect(message.toolCalls!.map((c) => c.name)).toEqual([LONG, 'made_up']);
  });

  it('rejects with REQUEST_ABORTED when the model throws after an abort', async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doStream: async () => {
        controller.abort();
        throw new Error('fetch aborted');
      },
    });
    const error = await fromLanguageModel(model)
      .generate(request(), { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REQUEST_ABORTED', retryable: false });
  });
});
