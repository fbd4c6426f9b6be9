import { describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer } from './start-openai-compatible-server.js';
import { useServer } from './test-support/use-server.js';

const FIXTURE = new URL('./__fixtures__/openai-gpt4o-parallel-tool-calls.json', import.meta.url);

const start = useServer();

function post(base: string, body: unknown): Promise<Response> {
  return fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
  });
}

interface Completion {
  object: string;
  choices: { finish_reason: string; message: { content: string; tool_calls?: unknown[] } }[];
}

interface ErrorBody {
  error: { code: string; message: string };
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

function payloads(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6));
}

describe('startOpenAICompatibleServer', () => {
  it('listens on 127.0.0.1 with an ephemeral port and a /v1 base URL', async () => {
    const s = await start({ script: [] });
    expect(s.port).toBeGreaterThan(0);
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/v1`);
  });

  it('listens on the port asked for, and says so when it is taken', async () => {
    const first = await start({ script: [] });
    const port = first.port;
    await first.close();
    const again = await start({ script: [], port });
    expect(again.url).toBe(`http://127.0.0.1:${port}/v1`);
    await expect(startOpenAICompatibleServer({ script: [], port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    await expect(startOpenAICompatibleServer({ script: [], port: 70_000 })).rejects.toThrow(
      /port.*integer port from 0 to 65535/,
    );
  });

  it('streams a scripted turn as SSE ending in [DONE] and records the request', async () => {
    const s = await start({
      script: [{ content: 'hello', usage: { promptTokens: 1, completionTokens: 2 } }],
    });
    const res = await post(s.url, {
      model: 'gpt-x',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const data = payloads(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('hello');
    expect(chunks[0].model).toBe('gpt-x');
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(s.requests[0]!.headers.authorization).toBe('Bearer k');
    // Typed as the wire names it: no cast to read what the client sent.
    const body = s.requests[0]!.body;
    if (typeof body === 'string') throw new Error('expected a JSON body');
    expect(body.messages?.[0]?.content).toBe('hi');
  });

  it('answers without streaming when stream is not true', async () => {
    const s = await start({ script: [{ toolCalls: [{ id: null, name: 't', arguments: '{}' }] }] });
    const body = await json<Completion>(await post(s.url, { model: 'm', messages: [] }));
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    expect(body.choices[0]!.message.tool_calls).toEqual([
      { id: null, type: 'function', function: { name: 't', arguments: '{}' } },
    ]);
  });

  it('replays a fixture file and raw chunks as they are', async () => {
    const s = await start({
      script: [{ fixture: FIXTURE }, { chunks: [{ choices: [], odd: true }] }],
    });
    const first = payloads(await (await post(s.url, { stream: true, messages: [] })).text());
    expect(first).toHaveLength(26);
    expect(JSON.parse(first[1]!).choices[0].delta.tool_calls[0].id).toBe(
      'call_JMW1whyEaYG438VE1OIflxA2',
    );
    const second = payloads(await (await post(s.url, { stream: true, messages: [] })).text());
    expect(second).toEqual(['{"choices":[],"odd":true}', '[DONE]']);
  });

  it('picks turns with functions of the request', async () => {
    const s = await start({
      script: [
        (request) => ({
          content: `got ${(request.body as { messages: unknown[] }).messages.length}`,
        }),
      ],
    });
    const body = await json<Completion>(await post(s.url, { messages: [1, 2, 3] }));
    expect(body.choices[0]!.message.content).toBe('got 3');
  });

  it('fails the first N requests with the scripted status, then succeeds', async () => {
    const s = await start({
      script: [{ content: 'ok' }],
      quirks: { failBeforeSuccess: { status: 429, times: 2 } },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(s.url, { messages: [] });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('retry-after-ms')).toBe('1');
        expect((await json<ErrorBody>(res)).error.code).toBe('rate_limit_exceeded');
      } else await res.text();
    }
    expect(statuses).toEqual([429, 429, 200]);
    expect(s.requests).toHaveLength(3);
  });

  it.each([
    [503, 'server_error'],
    [400, 'invalid_request_error'],
  ])('answers a scripted %s with the code %s', async (status, code) => {
    const s = await start({
      script: [{ content: 'ok' }],
      quirks: { failBeforeSuccess: { status, times: 1 } },
    });
    const res = await post(s.url, { messages: [] });
    expect(res.status).toBe(status);
    expect((await json<ErrorBody>(res)).error.code).toBe(code);
  });

  it('sends an in-band error chunk and ends the stream', async () => {
    const s = await start({
      script: [{ content: 'abcdefgh' }],
      quirks: { errorChunk: { afterChunks: 2, error: { message: 'overloaded', code: 'busy' } } },
    });
    const data = payloads(await (await post(s.url, { stream: true, messages: [] })).text());
    expect(data).toHaveLength(3);
    expect(JSON.parse(data[2]!)).toEqual({ error: { message: 'overloaded', code: 'busy' } });
  });

  it('drops the connection mid-stream', async () => {
    const s = await start({
      script: [{ content: 'abcdefghijkl' }],
      quirks: { dropAfterChunks: 2 },
    });
    const res = await post(s.url, { stream: true, messages: [] });
    await expect(res.text()).rejects.toThrow();
  });

  it('reports a script that ran out, an unknown route and a non-JSON body', async () => {
    const s = await start({ script: [] });
    const exhausted = await post(s.url, { messages: [] });
    expect(exhausted.status).toBe(400);
    expect((await json<ErrorBody>(exhausted)).error.code).toBe('script_exhausted');
    expect((await fetch(`${s.url}/models`)).status).toBe(404);
    const bad = await fetch(`${s.url}/chat/completions`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect(s.requests.at(-1)!.body).toBe('{nope');
  });
});
