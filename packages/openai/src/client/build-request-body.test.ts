import type { LLMRequest } from '@skein/spec';
import { ToolNameCodec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { type BodySettings, buildRequestBody } from './build-request-body.js';

const LONG =
  'billing.invoices v3.find unpaid invoices for customer.and summarise the amounts owed today';
const settings: BodySettings = {
  model: 'default-model',
  stream: true,
  parallelToolCalls: undefined,
  maxTokensField: 'max_tokens',
};

function request(fields: Partial<LLMRequest>): LLMRequest {
  return { threadId: 't', nodeId: 'n', messages: [], tools: [], ...fields };
}

describe('buildRequestBody', () => {
  it('sends encoded names in tools, history and tool_choice, and asks for usage', async () => {
    const codec = new ToolNameCodec();
    const encoded = codec.encode(LONG);
    const body = await buildRequestBody(
      request({
        tools: [{ name: LONG, description: 'd', parameters: { type: 'object' }, strict: true }],
        messages: [
          { role: 'user', content: 'go', name: 'alice' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: LONG, arguments: '{"a":1}' }],
            metadata: { toolCallExtraContent: { c1: { google: { thought_signature: 'sig' } } } },
          },
          { role: 'tool', content: 'result', toolCallId: 'c1', name: LONG },
        ],
        toolChoice: { name: LONG },
        temperature: 0.2,
        maxTokens: 50,
        stop: ['END'],
        providerOptions: {
          seed: 7,
          stream_options: { continuous_usage_stats: true },
          model: 'ignored',
        },
      }),
      { ...settings, parallelToolCalls: false },
      codec,
    );
    expect(body).toEqual({
      seed: 7,
      model: 'default-model',
      stream: true,
      stream_options: { continuous_usage_stats: true, include_usage: true },
      messages: [
        { role: 'user', content: 'go', name: 'alice' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: encoded, arguments: '{"a":1}' },
              extra_content: { google: { thought_signature: 'sig' } },
            },
          ],
        },
        { role: 'tool', content: 'result', tool_call_id: 'c1' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: encoded,
            description: 'd',
            parameters: { type: 'object' },
            strict: true,
          },
        },
      ],
      parallel_tool_calls: false,
      tool_choice: { type: 'function', function: { name: encoded } },
      temperature: 0.2,
      max_tokens: 50,
      stop: ['END'],
    });
  });

  it('leaves out tools, parallel_tool_calls and stream_options when they do not apply', async () => {
    const body = await buildRequestBody(
      request({ model: 'other', messages: [{ role: 'user', content: 'x' }], toolChoice: 'none' }),
      {
        ...settings,
        stream: false,
        parallelToolCalls: true,
        maxTokensField: 'max_completion_tokens',
      },
      new ToolNameCodec(),
    );
    expect(body).toEqual({
      model: 'other',
      stream: false,
      messages: [{ role: 'user', content: 'x' }],
      tool_choice: 'none',
    });
  });

  it('writes a nameless call with the placeholder name, keeping its id', async () => {
    const body = await buildRequestBody(
      request({
        messages: [
          {
            role: 'assistant',
            content: 'x',
            toolCalls: [{ id: 'c9', name: '', arguments: '{}', error: 'no name' }],
          },
          { role: 'tool', content: 'no name', toolCallId: 'c9' },
        ],
      }),
      settings,
      new ToolNameCodec(),
    );
    const messages = body.messages as {
      tool_calls?: { id: string; function: { name: string } }[];
    }[];
    expect(messages[0]!.tool_calls![0]).toMatchObject({
      id: 'c9',
      function: { name: 'skein_unnamed_tool' },
    });
  });

  it('sends a response format as a named json_schema, strict only when asked', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const loose = await buildRequestBody(
      request({ responseFormat: { type: 'json', schema } }),
      settings,
      new ToolNameCodec(),
    );
    expect(loose.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'output', schema, strict: false },
    });
    const strict = await buildRequestBody(
      request({ responseFormat: { type: 'json', schema, name: 'verdict', strict: true } }),
      settings,
      new ToolNameCodec(),
    );
    expect(strict.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'verdict', schema, strict: true },
    });
    expect(await buildRequestBody(request({}), settings, new ToolNameCodec())).not.toHaveProperty(
      'response_format',
    );
  });

  it('uses max_completion_tokens when told to', async () => {
    const body = await buildRequestBody(
      request({ maxTokens: 9 }),
      { ...settings, maxTokensField: 'max_completion_tokens' },
      new ToolNameCodec(),
    );
    expect(body.max_completion_tokens).toBe(9);
    expect(body.max_tokens).toBeUndefined();
  });
});
