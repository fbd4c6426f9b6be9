import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LLMStreamEvent } from '@skein/spec';
import { ProviderError } from '@skein/spec';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@skein/testkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOpenAIClient, type OpenAIClientOptions } from './create-openai-client.js';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = {
  threadId: 't',
  nodeId: 'n',
  messages: [{ role: 'user' as const, content: 'x' }],
  tools: [],
};

function client(options: Partial<OpenAIClientOptions> = {}) {
  return createOpenAIClient({ baseURL: server!.url, apiKey: 'k', model: 'm', ...options });
}

describe('retries', () => {
  it.each([429, 500])('retries HTTP %s and then succeeds', async (status) => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'finally' }],
      quirks: { failBeforeSuccess: { status, times: 2 } },
    });
    const response = await client({ maxRetries: 2 }).generate(ask);
    expect(response.message.content).toBe('finally');
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with the status and the provider code', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'never' }],
      quirks: { failBeforeSuccess: { status: 429, times: 5 } },
    });
    const error = await client({ maxRetries: 1 })
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'PROVIDER_REQUEST_FAILED',
      status: 429,
      providerCode: 'rate_limit_exceeded',
      providerMessage: 'testkit: scripted failure 2 of 5',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    server = await startOpenAICompatibleServer({ script: [] });
    const error = await client({ maxRetries: 3 })
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, providerCode: 'script_exhausted' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('broken streams', () => {
  it('turns a connection dropped midway into StreamInterruptedError, without retrying', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'a long answer that never ends' }],
      quirks: { dropAfterChunks: 3 },
    });
    const deltas: string[] = [];
    const error = await client({ maxRetries: 2 })
      .generate(ask, { onEvent: (e) => e.type === 'text-delta' && deltas.push(e.delta) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('STREAM_INTERRUPTED');
    expect((error as Error).message).toContain('after 3 chunk(s)');
    expect(deltas.join('')).toBe('a long a');
    expect(server.requests).toHaveLength(1);
  });

  it('treats a body that ends without [DONE] or a finish reason as interrupted', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'abcdefgh' }],
      quirks: { dropAfterChunks: 99 },
    });
    // dropAfterChunks beyond the end: every chunk arrives, then the connection goes.
    const error = await client()
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
  });

  it('raises an in-band error chunk with the provider code and message', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'abcdefgh' }],
      quirks: {
        errorChunk: { afterChunks: 2, error: { message: 'Model overloaded', code: 'overloaded' } },
      },
    });
    const error = await client()
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      providerCode: 'overloaded',
      providerMessage: 'Model overloaded',
    });
  });
});

describe('abort and timeouts', () => {
  it('aborts mid-stream with RequestAbortedError', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'x'.repeat(200) }],
      quirks: { chunkDelayMs: 5, textChunkSize: 1 },
    });
    const controller = new AbortController();
    let deltas = 0;
    const onEvent = (e: LLMStreamEvent) => {
      if (e.type === 'text-delta' && ++deltas === 3) controller.abort(new Error('user stop'));
    };
    const error = await client()
      .generate(ask, { signal: controller.signal, onEvent })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'REQUEST_ABORTED', details: { phase: 'stream' } });
    expect(deltas).toBeLessThan(200);
  });

  it('does not send anything when the signal is already aborted', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'never' }] });
    const error = await client()
      .generate(ask, { signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REQUEST_ABORTED', details: { phase: 'request' } });
    expect(server.requests).toHaveLength(0);
  });

  it('times out a stream that goes silent', async () => {
    // Headers and one chunk, then silence. On the real clock a busy machine could take longer
    // than the 100 ms timeout to answer at all (phase `request`); on a fake one no time passes
    // until the first chunk is in, and then exactly the timeout.
    const silent = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const delta = { role: 'assistant', content: 'sl' };
        const chunk = { id: 'x', model: 'm', choices: [{ index: 0, delta, finish_reason: null }] };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      });
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { port } = silent.address() as AddressInfo;
      let streaming!: () => void;
      const firstDelta = new Promise<void>((resolve) => {
        streaming = resolve;
      });
      const pending = createOpenAIClient({
        baseURL: `http://127.0.0.1:${port}/v1`,
        apiKey: 'k',
        model: 'm',
        timeoutMs: 100,
        maxRetries: 0,
      })
        .generate(ask, { onEvent: (e) => e.type === 'text-delta' && streaming() })
        .catch((e: unknown) => e);
      await firstDelta;
      await vi.advanceTimersByTimeAsync(100);
      const error = await pending;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({
        code: 'REQUEST_TIMEOUT',
        details: { phase: 'stream', timeoutMs: 100 },
      });
    } finally {
      vi.useRealTimers();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('re-throws what the caller’s onEvent threw, as it is', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'abc' }] });
    const mine = new Error('mine');
    const error = await client()
      .generate(ask, {
        onEvent: () => {
          throw mine;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(mine);
  });
});

describe('servers that ignore stream: true', () => {
  it('reads a JSON completion answered to a streaming request', async () => {
    const plain = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'x',
            model: 'plain',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } },
                  ],
                },
                finish_reason: 'tool_calls',
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = plain.address() as AddressInfo;
      const response = await createOpenAIClient({
        baseURL: `http://127.0.0.1:${port}/v1`,
        apiKey: 'k',
        model: 'm',
      }).generate(ask);
      expect(response.message.toolCalls).toEqual([{ id: 'c', name: 'f', arguments: '{}' }]);
      expect(response.model).toBe('plain');
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });
});
