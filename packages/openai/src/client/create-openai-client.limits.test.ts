import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError, ProviderError, SkeinError } from '@skein/spec';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient, type OpenAIClientOptions } from './create-openai-client.js';

let server: OpenAICompatibleServer | undefined;
let raw: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  raw?.closeAllConnections();
  await new Promise((resolve) => (raw ? raw.close(resolve) : resolve(undefined)));
  raw = undefined;
});

const ask = {
  threadId: 't',
  nodeId: 'n',
  messages: [{ role: 'user' as const, content: 'x' }],
  tools: [{ name: 'f', description: 'f', parameters: { type: 'object' } }],
};

/** A server answering every request with `body` as an SSE stream, written as it is. */
async function sseServer(body: string): Promise<string> {
  raw = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
}

async function failure(promise: Promise<unknown>): Promise<SkeinError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(SkeinError.isInstance(error)).toBe(true);
  return error as SkeinError;
}

function client(url: string, options: Partial<OpenAIClientOptions> = {}) {
  return createOpenAIClient({ baseURL: url, apiKey: 'k', model: 'm', ...options });
}

describe('stream limits', () => {
  it('stops a data line longer than maxLineLength', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'x'.repeat(300) }],
      quirks: { textChunkSize: 300 },
    });
    const error = await failure(client(server.url, { maxLineLength: 256 }).generate(ask));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'STREAM_LIMIT_EXCEEDED', retryable: false });
  });

  it('stops a response whose text grows past maxTextLength', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'y'.repeat(100) }] });
    const error = await failure(client(server.url, { maxTextLength: 50 }).generate(ask));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('STREAM_LIMIT_EXCEEDED');
    expect(error.message).toContain('maxTextLength');
  });

  it('applies maxTextLength to a response that is not streamed', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'y'.repeat(100) }] });
    const error = await failure(
      client(server.url, { maxTextLength: 50, stream: false }).generate(ask),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('STREAM_LIMIT_EXCEEDED');
  });

  it.each([
    ['maxLineLength', 0],
    ['maxTextLength', Number.NaN],
    ['timeoutMs', 2 ** 31],
    ['timeoutMs', -1],
    ['maxRetries', 1e9],
  ])('refuses %s: %s', (name, value) => {
    expect(() => client('http://127.0.0.1:9/v1', { [name]: value })).toThrow(InvalidArgumentError);
  });
});

describe('deeply nested JSON from the provider', () => {
  const depth = 100_000;
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('answers tool-call arguments nested 100,000 deep with ToolCall.error', async () => {
    const chunk = (delta: string, finish: string | null) =>
      `data: {"choices":[{"index":0,"delta":${delta},"finish_reason":${JSON.stringify(finish)}}]}\n\n`;
    const url = await sseServer(
      chunk(
        `{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":${JSON.stringify(`{"a":${deep}}`)}}}]}`,
        null,
      ) +
        chunk('{}', 'tool_calls') +
        'data: [DONE]\n\n',
    );
    const response = await client(url).generate(ask);
    expect(response.message.toolCalls?.[0]?.error).toContain('nested deeper than 256 levels');
  });

  it.each([
    ['an {"error": …} chunk', `data: {"error":${deep}}\n\n`],
    ['an event: error', `event: error\ndata: ${deep}\n\n`],
    ['an error message', `data: {"error":{"code":"server_error","message":${deep}}}\n\n`],
  ])('raises %s nested 100,000 deep as PROVIDER_STREAM_ERROR', async (_, body) => {
    const url = await sseServer(body);
    const error = await failure(client(url).generate(ask));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('PROVIDER_STREAM_ERROR');
    expect(() => JSON.stringify(error.details)).not.toThrow();
  });
});
