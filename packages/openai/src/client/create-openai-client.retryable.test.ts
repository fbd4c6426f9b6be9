import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError, SkeinError } from '@skein/spec';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '@skein/testkit';
import OpenAI from 'openai';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { isOpenAIProviderError, requestFailed } from '../errors/provider-errors.js';
import { createOpenAIClient, type OpenAIClientOptions } from './create-openai-client.js';

// Retrying is the engine's job (one layer): each error says whether a new request can succeed,
// and the `openai` package makes one request per call unless `maxRetries` asks for more.

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

async function failure(promise: Promise<unknown>): Promise<SkeinError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(SkeinError.isInstance(error)).toBe(true);
  return error as SkeinError;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Runs `act` noting every `setTimeout` delay over the 2^31 - 1 ms a timer holds, and every
 * TimeoutOverflowWarning (Node fires such a timer after 1 ms instead, so a wait becomes a busy
 * retry). Real timers: the server runs in this process, and a request under fake timers never
 * ends; the call under test waits for nothing, so no assertion depends on the clock.
 */
async function watchTimers<T>(act: () => Promise<T>): Promise<{ result: T; tooLong: string[] }> {
  const tooLong: string[] = [];
  const onWarning = (warning: Error): void => {
    if (warning.name === 'TimeoutOverflowWarning') tooLong.push(warning.message);
  };
  process.on('warning', onWarning);
  const timeouts = vi.spyOn(globalThis, 'setTimeout');
  try {
    const result = await act();
    // A warning is emitted on the next tick after the timer that caused it.
    await new Promise((resolve) => setImmediate(resolve));
    for (const [, ms] of timeouts.mock.calls)
      if (!(Number(ms ?? 0) <= MAX_TIMER_MS)) tooLong.push(`setTimeout(${String(ms)})`);
    return { result, tooLong };
  } finally {
    timeouts.mockRestore();
    process.off('warning', onWarning);
  }
}

describe('HTTP errors', () => {
  it.each([
    [503, true],
    [500, true],
    [429, true],
    [409, true],
    [408, true],
    [400, false],
    [401, false],
    [404, false],
    [422, false],
  ])('sends one request for HTTP %s by default; retryable: %s', async (status, retryable) => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'never' }],
      quirks: { failBeforeSuccess: { status, times: 5 } },
    });
    const error = await failure(client().generate(ask));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'PROVIDER_REQUEST_FAILED', status, retryable });
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the retry-after the provider asked for', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'never' }],
      quirks: { failBeforeSuccess: { status: 429, times: 5, retryAfterMs: 1500 } },
    });
    const error = await failure(client().generate(ask));
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 1500 });
    expect(isOpenAIProviderError(error, 'PROVIDER_REQUEST_FAILED')).toBe(true);
    if (isOpenAIProviderError(error, 'PROVIDER_REQUEST_FAILED')) {
      expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
      expect(error.details).toMatchObject({ status: 429, retryAfterMs: 1500, model: 'm' });
    }
  });

  it('does not retry a retry-after no timer can wait, and marks it not retryable', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'never' }],
      quirks: { failBeforeSuccess: { status: 429, times: 5, retryAfterMs: 1e12 } },
    });
    const overlong = await watchTimers(() => failure(client({ maxRetries: 3 }).generate(ask)));
    expect(overlong.result).toMatchObject({ status: 429, retryable: false, retryAfterMs: 1e12 });
    expect(overlong.result.message).toContain('retry-after');
    // The openai package retries (maxRetries: 3) only what it can wait for.
    expect(server.requests).toHaveLength(1);
    expect(overlong.tooLong).toEqual([]);
  });

  it('keeps retryable a retry-after a timer can still wait', () => {
    const refusal = (retryAfterMs: number) =>
      requestFailed(
        { status: 429, providerCode: undefined, providerMessage: 'x', model: 'm', retryAfterMs },
        undefined,
      );
    expect(refusal(MAX_TIMER_MS).retryable).toBe(true);
    expect(refusal(MAX_TIMER_MS + 1)).toMatchObject({
      retryable: false,
      retryAfterMs: MAX_TIMER_MS + 1,
      details: { retryAfterMs: MAX_TIMER_MS + 1 },
    });
  });

  it('does not retry an HTTP date in retry-after that no timer can reach', async () => {
    const far = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests++;
        res.writeHead(503, {
          'content-type': 'application/json',
          'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT',
        });
        res.end('{"error":{"message":"down for maintenance"}}');
      });
    });
    let requests = 0;
    await new Promise<void>((resolve) => far.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = far.address() as AddressInfo;
      const overlong = await watchTimers(() =>
        failure(
          createOpenAIClient({
            baseURL: `http://127.0.0.1:${port}/v1`,
            apiKey: 'k',
            model: 'm',
            maxRetries: 2,
          }).generate(ask),
        ),
      );
      expect(overlong.result).toMatchObject({ status: 503, retryable: false });
      expect(requests).toBe(1);
      expect(overlong.tooLong).toEqual([]);
    } finally {
      far.closeAllConnections();
      await new Promise((resolve) => far.close(resolve));
    }
  });

  it('turns off the retries of an openai client passed in, unless maxRetries is set', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'finally' }],
      quirks: { failBeforeSuccess: { status: 503, times: 1 } },
    });
    const sdk = new OpenAI({ baseURL: server.url, apiKey: 'k' });
    await failure(createOpenAIClient({ client: sdk, model: 'm' }).generate(ask));
    expect(server.requests).toHaveLength(1);
    const response = await createOpenAIClient({ client: sdk, model: 'm', maxRetries: 1 }).generate(
      ask,
    );
    expect(response.message.content).toBe('finally');
  });

  it('marks a refused connection retryable', async () => {
    const closed = await startOpenAICompatibleServer({ script: [] });
    const url = closed.url;
    await closed.close();
    const error = await failure(
      createOpenAIClient({ baseURL: url, apiKey: 'k', model: 'm' }).generate(ask),
    );
    expect(error).toMatchObject({ code: 'PROVIDER_REQUEST_FAILED', retryable: true });
    // No HTTP answer came back: no status.
    expect((error as { status?: number }).status).toBeUndefined();
  });

  it('gives a typed, non-retryable error for a deeply nested error body, not a RangeError', async () => {
    const depth = 100_000;
    const deep = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(`{"error":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      });
    });
    await new Promise<void>((resolve) => deep.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = deep.address() as AddressInfo;
      const error = await failure(
        createOpenAIClient({
          baseURL: `http://127.0.0.1:${port}/v1`,
          apiKey: 'k',
          model: 'm',
        }).generate(ask),
      );
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.code).toBe('PROVIDER_REQUEST_FAILED');
      expect(error.retryable).toBe(false);
      expect(error.message).toContain('could not be read');
    } finally {
      deep.closeAllConnections();
      await new Promise((resolve) => deep.close(resolve));
    }
  });
});

describe('stream errors', () => {
  it('marks an interrupted stream retryable', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'a long answer' }],
      quirks: { dropAfterChunks: 2 },
    });
    const error = await failure(client().generate(ask));
    expect(error).toMatchObject({ code: 'STREAM_INTERRUPTED', retryable: true });
  });

  it('marks a stream timeout retryable and an abort not', async () => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'slow' }, { content: 'x'.repeat(50) }],
      quirks: { chunkDelayMs: 300 },
    });
    const timeout = await failure(client({ timeoutMs: 100 }).generate(ask));
    expect(timeout).toMatchObject({ code: 'REQUEST_TIMEOUT', retryable: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await failure(client().generate(ask, { signal: controller.signal }));
    expect(aborted).toMatchObject({ code: 'REQUEST_ABORTED', retryable: false });
  });

  it.each([
    [{ message: 'busy', type: 'server_error', code: 'internal_error' }, true],
    [{ message: 'slow down', code: 'rate_limit_exceeded' }, true],
    [{ message: 'overloaded', type: 'overloaded_error' }, true],
    [{ message: 'bad gateway', code: '502' }, true],
    [
      { message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' },
      false,
    ],
    [{ message: 'no code at all' }, false],
  ])('classifies the in-band error %j as retryable: %s', async (error, retryable) => {
    server = await startOpenAICompatibleServer({
      script: [{ content: 'abcdefgh' }],
      quirks: { errorChunk: { afterChunks: 1, error } },
    });
    const thrown = await failure(client().generate(ask));
    expect(thrown).toBeInstanceOf(ProviderError);
    expect(thrown.code).toBe('PROVIDER_STREAM_ERROR');
    expect(thrown.retryable).toBe(retryable);
  });

  it('never retries a conversation the provider would reject', async () => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'never' }] });
    const broken = {
      ...ask,
      messages: [{ role: 'tool' as const, content: 'x', toolCallId: 'nobody' }],
    };
    const error = await failure(client().generate(broken));
    expect(error).toMatchObject({ code: 'INVALID_CONVERSATION', retryable: false });
    expect(server.requests).toHaveLength(0);
  });
});
