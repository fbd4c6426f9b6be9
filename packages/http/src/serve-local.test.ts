import { request } from 'node:http';
import { connect } from 'node:net';
import { ThreadError } from '@skein/core';
import { sendChunkedBody } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalServer, serveLocal } from './serve-local.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw request, so Host, Origin and the body's framing are what the test says. */
function send(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/echo',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = { 'content-type': 'application/json' };

async function start(maxBodyBytes?: number) {
  server = await serveLocal(
    async (req, res) => {
      if (req.path[0] === 'echo') {
        const body = await req.json();
        res.writeHead(200, json).end(JSON.stringify({ path: req.path, body }));
      } else if (req.path[0] === 'busy') {
        throw ThreadError.state('t', 'RUNNING', 'busy');
      } else if (req.path[0] === 'bug') {
        throw new Error('secret detail');
      }
    },
    maxBodyBytes === undefined ? {} : { maxBodyBytes },
  );
  return server.port;
}

describe('serveLocal', () => {
  it('answers its own host, decodes the path and reads a JSON body', async () => {
    const port = await start();
    const ok = await send(port, { path: '/echo/a%20b', headers: json, body: '{"x":1}' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ path: ['echo', 'a b'], body: { x: 1 } });
    const own = await send(port, {
      headers: { ...json, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
      body: '{}',
    });
    expect(own.status).toBe(200);
    expect((await send(port, { method: 'GET', path: '/nothing' })).status).toBe(404);
  });

  it('refuses other hosts (421) and cross-origin writes (403) before reading anything', async () => {
    const port = await start();
    expect(
      (await send(port, { headers: { host: 'evil.example:80', ...json }, body: '{}' })).status,
    ).toBe(421);
    expect(
      (await send(port, { path: 'http://evil.example/echo', headers: json, body: '{}' })).status,
    ).toBe(421);
    expect(
      (await send(port, { headers: { ...json, origin: 'http://evil.example' }, body: '{}' }))
        .status,
    ).toBe(403);
    expect(
      (
        await send(port, {
          headers: { ...json, origin: `http://127.0.0.1:${port + 1}` },
          body: '{}',
        })
      ).status,
    ).toBe(403);
    expect(
      (await send(port, { headers: { ...json, 'sec-fetch-site': 'cross-site' }, body: '{}' }))
        .status,
    ).toBe(403);
  });

  it('bounds bodies (413, declared or chunked), wants JSON (415) that parses (400)', async () => {
    const port = await start(16);
    expect(
      (await send(port, { headers: json, body: JSON.stringify({ big: 'x'.repeat(50) }) })).status,
    ).toBe(413);
    expect(
      (
        await send(port, {
          headers: { ...json, 'transfer-encoding': 'chunked' },
          body: 'y'.repeat(50),
        })
      ).status,
    ).toBe(413);
    expect(
      (await send(port, { headers: { 'content-type': 'text/plain' }, body: 'hi' })).status,
    ).toBe(415);
    const bad = await send(port, { headers: json, body: '{nope' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe('INVALID_BODY');
  });

  it('answers an engine error with its status, and hides what a 500 says', async () => {
    const port = await start();
    const busy = await send(port, { path: '/busy' });
    expect(busy.status).toBe(409);
    expect(JSON.parse(busy.body).error).toMatchObject({ code: 'THREAD_STATE' });
    const bug = await send(port, { path: '/bug' });
    expect(bug.status).toBe(500);
    expect(bug.body).not.toContain('secret');
  });

  it('answers 413 to a large chunked body without resetting the connection under it', async () => {
    const port = await start(1024 * 1024);
    const answer = await sendChunkedBody(
      port,
      `POST /echo HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json`,
      1.5 * 1024 * 1024,
    );
    expect({ status: answer.status, reset: answer.error }).toEqual({
      status: 413,
      reset: undefined,
    });
    expect(JSON.parse(answer.body!).error.code).toBe('BODY_TOO_LARGE');
  });

  it('refuses a path with a malformed percent-escape (400 INVALID_PATH), not a 500', async () => {
    const port = await start();
    for (const path of ['/threads/%E0%A4%A/messages', '/%/', '/echo/%zz']) {
      const answer = await send(port, { path, headers: json, body: '{}' });
      expect([path, answer.status]).toEqual([path, 400]);
      expect(JSON.parse(answer.body).error).toMatchObject({
        code: 'INVALID_PATH',
        message: expect.stringContaining('percent'),
      });
    }
  });

  it('hands the handler a typed 400 when the client hangs up mid-body', async () => {
    let failed!: (error: unknown) => void;
    const failure = new Promise<unknown>((resolve) => (failed = resolve));
    server = await serveLocal(async (req) => {
      const reading = req.json();
      // The body is being read: now the client goes.
      socket.destroy();
      await reading.catch(failed);
    });
    const socket = connect(server.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /x HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"a":`,
    );
    expect(await failure).toMatchObject({ code: 'BODY_INCOMPLETE', httpStatus: 400 });
  });

  it('refuses bad options', async () => {
    await expect(serveLocal(() => {}, { port: -1 })).rejects.toThrow(/port must be an integer/);
    await expect(serveLocal(() => {}, { maxBodyBytes: 0 })).rejects.toThrow(/maxBodyBytes/);
  });
});
