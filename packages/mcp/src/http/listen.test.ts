import { request as httpRequest } from 'node:http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore, type SkeinEngine } from '@skein/core';
import { sendChunkedBody } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type ClientOptions, testClient } from '../test-support/connect.js';
import { expectGreetingWithProgress } from '../test-support/progress-arrivals.js';
import { INITIALIZE } from '../test-support/raw-initialize.js';
import { testEngine } from '../test-support/workflows.js';
import { listenMcpHttp, type RunningMcpHttpServer } from './listen.js';

let running: RunningMcpHttpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(engine: SkeinEngine = testEngine(), maxBodyBytes?: number) {
  running = await listenMcpHttp(engine, {
    name: 'http-test',
    version: '1.0.0',
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
  });
  return running;
}

async function connect(url: string, options: ClientOptions = {}) {
  const client = testClient(options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A raw request, so the test chooses the Host and Origin headers a browser would send. */
function raw(
  url: string,
  headers: Record<string, string>,
  body: string | Buffer = INITIALIZE,
  method = 'POST',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('Streamable HTTP on 127.0.0.1', () => {
  it('serves the workflows to the SDK client: list, call with progress, pause and resume', async () => {
    const server = await serve();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(server.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('greet');
    // Every node's progress before the result, on the call's stream.
    await expectGreetingWithProgress(client);
    const paused = (await client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    // Another session (another client) can answer it: threads are the server's, not a session's.
    const other = await connect(server.url);
    const done = (await other.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: 'Rome' },
    })) as CallToolResult;
    expect(done.structuredContent).toMatchObject({ status: 'COMPLETED', output: 'Plan for Rome' });
    await client.close();
    await other.close();
  });

  it('answers an elicitation through the call it belongs to', async () => {
    const server = await serve(testEngine({ store: new InMemoryCheckpointStore() }));
    const client = await connect(server.url, {
      elicit: () => ({ action: 'accept', content: { answer: 'Lima' } }),
    });
    const result = (await client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'Plan for Lima',
    });
    await client.close();
  });

  it('cancels the thread when the client cancels the call', async () => {
    const engine = testEngine();
    const server = await serve(engine);
    const client = await connect(server.url);
    const started = new Promise<string>((resolve) =>
      engine.events.on('llm:request', (e) => resolve(e.threadId)),
    );
    const cancelled = new Promise<string>((resolve) =>
      engine.events.on('thread:cancelled', (e) => resolve(e.threadId)),
    );
    const controller = new AbortController();
    const call = client.callTool({ name: 'greet', arguments: { name: 'HANG' } }, undefined, {
      signal: controller.signal,
    });
    const threadId = await started;
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await cancelled).toBe(threadId);
    await client.close();
  });

  it('refuses another Host with 421, another origin with 403, an oversized body with 413', async () => {
    const server = await serve(testEngine(), 64 * 1024);
    const port = String(server.port);
    expect((await raw(server.url, { host: `evil.example:${port}` })).status).toBe(421);
    expect((await raw(server.url, { host: `127.0.0.1.nip.io:${port}` })).status).toBe(421);
    const rebound = await raw(server.url, { host: `evil.example:${port}` });
    expect(JSON.parse(rebound.body)).toMatchObject({
      error: { code: -32000, data: { code: 'HOST_NOT_ALLOWED' } },
    });
    // An absolute-form target names a host of its own.
    const absolute = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: `http://evil.example:${port}/mcp`,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(INITIALIZE);
    });
    expect(absolute).toBe(421);
    expect((await raw(server.url, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await raw(server.url, { origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await raw(server.url, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // A GET counts too: it opens the server's event stream.
    const get = await raw(server.url, { origin: 'http://evil.example' }, '', 'GET');
    expect(get.status).toBe(403);
    expect(JSON.parse(get.body)).toMatchObject({
      error: { data: { code: 'CROSS_ORIGIN_REFUSED' } },
    });
    expect((await raw(server.url, { 'sec-fetch-site': 'cross-site' }, '', 'GET')).status).toBe(403);
    const big = Buffer.alloc(1024 * 1024, 'x');
    const tooLarge = await raw(server.url, {}, big);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({
      error: { data: { code: 'BODY_TOO_LARGE' } },
    });
    // The checks pass a well-behaved request: the same initialize from the server's own origin.
    const own = await raw(server.url, {
      origin: `http://127.0.0.1:${port}`,
      'sec-fetch-site': 'same-origin',
    });
    expect(own.status).toBe(200);
    expect((await raw(server.url.replace('/mcp', '/other'), {})).status).toBe(404);
    const malformed = await raw(server.url, {}, '{"jsonrpc":');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ error: { data: { code: 'INVALID_BODY' } } });
    const empty = await raw(server.url, {}, '');
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body)).toMatchObject({ error: { data: { code: 'INVALID_BODY' } } });
    const form = await raw(server.url, { 'content-type': 'text/plain' });
    expect(form.status).toBe(415);
    expect(JSON.parse(form.body)).toMatchObject({
      error: { data: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
    });
  });

  it('answers a large chunked body with 413, not a reset; other methods and paths with 405, 404', async () => {
    const server = await serve(testEngine(), 64 * 1024);
    const chunked = await sendChunkedBody(
      server.port,
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream`,
      1.5 * 1024 * 1024,
    );
    expect({ status: chunked.status, reset: chunked.error }).toEqual({
      status: 413,
      reset: undefined,
    });
    expect(JSON.parse(chunked.body!)).toMatchObject({
      error: { data: { code: 'BODY_TOO_LARGE' } },
    });
    const put = await new Promise<{ status: number; allow: string | undefined; body: string }>(
      (resolve, reject) => {
        const req = httpRequest(server.url, { method: 'PUT' }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }),
          );
        });
        req.on('error', reject);
        req.end();
      },
    );
    expect([put.status, put.allow]).toEqual([405, 'GET, POST, DELETE']);
    expect(JSON.parse(put.body)).toMatchObject({ error: { data: { code: 'METHOD_NOT_ALLOWED' } } });
    const other = await raw(server.url.replace('/mcp', '/other'), {});
    expect(JSON.parse(other.body)).toMatchObject({ error: { data: { code: 'ROUTE_NOT_FOUND' } } });
  });

  it('a 10 MB argument from the SDK client is refused with 413, and the server goes on', async () => {
    const server = await serve();
    const client = await connect(server.url);
    const error = await client
      .callTool({ name: 'greet', arguments: { name: 'x'.repeat(10 * 1024 * 1024) } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 413 });
    expect(String(error)).toContain('BODY_TOO_LARGE');
    const fine = (await client.callTool({
      name: 'greet',
      arguments: { name: 'Bo' },
    })) as CallToolResult;
    expect(fine.structuredContent).toMatchObject({ status: 'COMPLETED' });
    await client.close();
  });
});
