import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendChunkedBody } from '@skein/testkit';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatHandler } from './chat-handler.js';
import { type RunningChatServer, startChatServer } from './start-chat-server.js';
import { lastMessage } from './test-support/ai-reader.js';
import { chatEngine } from './test-support/chat-fixture.js';
import { rawRequest } from './test-support/raw-request.js';

const body = JSON.stringify({
  id: 'c1',
  trigger: 'submit-message',
  messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
});

let server: RunningChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(maxBodyBytes?: number) {
  const { engine } = chatEngine();
  server = await startChatServer({ engine, ...(maxBodyBytes ? { maxBodyBytes } : {}) });
  return { engine, api: `${server.url}/api/chat`, host: `127.0.0.1:${server.port}` };
}

describe('the chat server’s local rules', () => {
  it('listens on 127.0.0.1 only', async () => {
    await serve();
    expect(server!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses another Host name with 421, before running anything', async () => {
    const { api, engine } = await serve();
    const answer = await rawRequest(api, {
      method: 'POST',
      headers: { host: 'evil.example:80', 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body).error.code).toBe('HOST_NOT_ALLOWED');
    expect(await engine.getThread('c1')).toBeUndefined();
    const page = await rawRequest(`${server!.url}/`, { headers: { host: 'evil.example' } });
    expect(page.status).toBe(421);
  });

  it('refuses a write from another origin with 403', async () => {
    const { api, host, engine } = await serve();
    const foreign: Record<string, string>[] = [
      { origin: 'http://127.0.0.1:1' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const answer = await rawRequest(api, {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', ...headers },
        body,
      });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body).error.code).toBe('CROSS_ORIGIN_REFUSED');
    }
    expect(await engine.getThread('c1')).toBeUndefined();
    // The routes of `serve` too.
    const page = await rawRequest(`${server!.url}/form`, {
      method: 'POST',
      headers: { host, origin: 'http://evil.example' },
      body: 'x',
    });
    expect(page.status).toBe(403);
  });

  it('takes a write from its own origin', async () => {
    const { api, host } = await serve();
    const answer = await rawRequest(api, {
      method: 'POST',
      headers: {
        host,
        origin: `http://${host}`,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      body,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('bounds the body (413) and takes JSON only (415)', async () => {
    const { api, host } = await serve(64);
    const big = await rawRequest(api, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json' },
      body,
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error.code).toBe('BODY_TOO_LARGE');
    const chunked = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(body));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const form = await rawRequest(api, {
      method: 'POST',
      headers: { host, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    expect(JSON.parse(form.body).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 413 to a chunked body over the limit (no Content-Length), not a reset', async () => {
    const { host, engine } = await serve();
    const answer = await sendChunkedBody(
      server!.port,
      `POST /api/chat HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json`,
      1.5 * 1024 * 1024,
    );
    expect({ status: answer.status, reset: answer.error }).toEqual({
      status: 413,
      reset: undefined,
    });
    expect(JSON.parse(answer.body!).error.code).toBe('BODY_TOO_LARGE');
    expect(await engine.getThread('c1')).toBeUndefined();
  });

  it('refuses an absolute-form target naming another host with 421, whatever the Host', async () => {
    const { api, host } = await serve();
    await rawRequest(api, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json' },
      body,
    });
    const status = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server!.port, path, headers: { host } });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await status(`http://evil.example:${server!.port}/api/chat/c1/messages`)).toBe(421);
    expect(await status(`http://evil.example:${server!.port}/`)).toBe(421);
    expect(await status(`http://${host}/api/chat/c1/messages`)).toBe(200);
  });

  it('refuses a malformed percent-escape in the path with 400 INVALID_PATH', async () => {
    const { api, host } = await serve();
    for (const [method, path] of [
      ['GET', '/%E0%A4%A/stream'],
      ['POST', '/%E0%A4%A/stop'],
      ['GET', '/%/messages'],
    ] as const) {
      const answer = await rawRequest(`${api}${path}`, { method, headers: { host } });
      expect([method, path, answer.status]).toEqual([method, path, 400]);
      expect(JSON.parse(answer.body).error.code).toBe('INVALID_PATH');
    }
  });

  it('answers another method with 405 and Allow, another path with 404, outside the chat too', async () => {
    const { api, host } = await serve();
    const status = async (method: string, url: string) => {
      const res = await fetch(url, { method, headers: { host } });
      return [
        method,
        res.status,
        res.headers.get('allow'),
        ((await res.json()) as { error: { code: string } }).error.code,
      ];
    };
    expect(await status('GET', api)).toEqual(['GET', 405, 'POST', 'METHOD_NOT_ALLOWED']);
    expect(await status('DELETE', `${api}/c1/messages`)).toEqual([
      'DELETE',
      405,
      'GET',
      'METHOD_NOT_ALLOWED',
    ]);
    expect(await status('GET', `${api}/c1/other`)).toEqual(['GET', 404, null, 'ROUTE_NOT_FOUND']);
    expect(await status('GET', `${server!.url}/page`)).toEqual([
      'GET',
      404,
      null,
      'ROUTE_NOT_FOUND',
    ]);
  });

  it('refuses a body that is not JSON (400)', async () => {
    const { api, host, engine } = await serve();
    const answer = await rawRequest(api, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json' },
      body: '{"id":',
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 'INVALID_BODY',
      message: expect.stringContaining('not valid JSON'),
    });
    expect(await engine.getThread('c1')).toBeUndefined();
  });

  it('says what is wrong with a body that is not useChat’s', async () => {
    const { api, host } = await serve();
    const answer = await rawRequest(api, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c1', messages: [{ id: 'u1', role: 'robot', parts: [] }] }),
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 'BAD_CHAT_REQUEST',
      message: expect.stringContaining('messages[0].role'),
    });
  });

  it('refuses a chat id a store would change (a lone surrogate) with 400, before any stream', async () => {
    const { api, host, engine } = await serve();
    // Valid JSON: `\ud800` is an escape JSON allows. Before: a 200 stream ending in
    // CHECKPOINT_CONFLICT, then 409 for the chat for good.
    const lone = body.replace('"id":"c1"', '"id":"chat-\\ud800"');
    expect(JSON.parse(lone).id).toBe('chat-\ud800');
    const answer = await rawRequest(api, {
      method: 'POST',
      headers: { host, 'content-type': 'application/json' },
      body: lone,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 'BAD_CHAT_REQUEST',
      message: expect.stringMatching(/well-formed Unicode/),
    });
    expect(await engine.store!.listThreads()).toEqual([]);
    // Nothing was stored under any id: the chat the page meant is still a new one.
    const after = await rawRequest(`${api}/c1/messages`, { headers: { host } });
    expect(JSON.parse(after.body)).toEqual({ messages: [] });
  });
});

describe('a handler without allowedHosts (behind your own server)', () => {
  it('leaves the Host to that server, and still refuses writes from another origin', async () => {
    const { engine } = chatEngine();
    const handler = createChatHandler({ engine });
    const post = (headers: Record<string, string>) =>
      handler.fetch(
        new Request('http://app.example/api/chat', {
          method: 'POST',
          headers: { host: 'app.example', 'content-type': 'application/json', ...headers },
          body,
        }),
      );
    const foreign = await post({ origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe(
      'CROSS_ORIGIN_REFUSED',
    );
    expect(await engine.getThread('c1')).toBeUndefined();
    const own = await post({ origin: 'http://app.example' });
    expect(own.status).toBe(200);
    await own.text();
  });
});

describe('the Node (req, res) handler', () => {
  it('serves the same chat from a plain http server', async () => {
    const { engine } = chatEngine();
    const handler = createChatHandler({ engine });
    const http = createServer((req, res) => void handler.node(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const port = (http.address() as AddressInfo).port;
      const transport = new DefaultChatTransport<UIMessage>({
        api: `http://127.0.0.1:${port}/api/chat`,
      });
      const stream = await transport.sendMessages({
        chatId: 'n1',
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      });
      expect((await lastMessage(stream as never)).parts.at(-1)).toMatchObject({ text: 're: hi' });
      expect(await transport.reconnectToStream({ chatId: 'n1' })).toBeNull();
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
