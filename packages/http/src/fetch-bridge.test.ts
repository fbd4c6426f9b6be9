import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { sendChunkedBody } from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchEventStream } from './event-stream.js';
import { fetchToNode } from './fetch-bridge.js';
import { HttpRequestError } from './http-request-error.js';
import { readJsonBody } from './json-body.js';
import { allowedHosts } from './request-guard.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A loopback Node server whose requests go to `handle` through `fetchToNode`. */
async function serve(handle: (request: Request) => Promise<Response>): Promise<number> {
  const hosts = new Set<string>();
  server = createServer(fetchToNode(handle, { hosts }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  for (const host of allowedHosts(port)) hosts.add(host);
  return port;
}

const echo = async (request: Request) =>
  Response.json({ url: request.url, body: await readJsonBody(request, 1024 * 1024) });

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('fetchToNode', () => {
  it('hands the fetch handler the request, its URL under the Host, and streams the answer', async () => {
    const port = await serve(echo);
    const res = await fetch(`http://127.0.0.1:${port}/a%20b?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hi":1}',
    });
    expect(await res.json()).toEqual({
      url: `http://127.0.0.1:${port}/a%20b?x=1`,
      body: { hi: 1 },
    });
  });

  it('guards the Node request, an absolute-form target naming another host included', async () => {
    const port = await serve(echo);
    const absolute = await get(port, `http://evil.example:${port}/x`);
    expect(absolute.status).toBe(421);
    expect(JSON.parse(absolute.body).error.code).toBe('HOST_NOT_ALLOWED');
    expect((await get(port, `http://127.0.0.1:${port}/x`)).status).toBe(200);
  });

  it('answers 413 to a chunked body over the limit without resetting the connection', async () => {
    const port = await serve(async (request) =>
      Response.json(await readJsonBody(request, 1024 * 1024)),
    );
    const answer = await sendChunkedBody(
      port,
      `POST /x HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json`,
      1.5 * 1024 * 1024,
    );
    expect({ status: answer.status, reset: answer.error }).toEqual({
      status: 413,
      reset: undefined,
    });
    expect(JSON.parse(answer.body!).error.code).toBe('BODY_TOO_LARGE');
  });

  it('gives the handler a typed 400 when the client hangs up mid-body, and never rejects', async () => {
    let failed!: (error: unknown) => void;
    const failure = new Promise<unknown>((resolve) => (failed = resolve));
    const port = await serve(async (request) => {
      const reading = readJsonBody(request, 1024);
      socket.destroy();
      await reading.catch(failed);
      return new Response(null, { status: 204 });
    });
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /x HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"a":`,
    );
    expect(await failure).toMatchObject({ code: 'BODY_INCOMPLETE', httpStatus: 400 });
  });

  it('answers what the handler throws with its status, and a 500 without its message', async () => {
    const port = await serve(async (request) => {
      if (request.url.endsWith('/nope')) throw HttpRequestError.methodNotAllowed('GET', ['POST']);
      throw new Error('secret detail');
    });
    const refused = await fetch(`http://127.0.0.1:${port}/nope`);
    expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'POST']);
    const bug = await get(port, '/bug');
    expect(bug.status).toBe(500);
    expect(JSON.parse(bug.body)).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'internal error' },
    });
  });

  it('stops a streamed answer when the client goes', async () => {
    let ended!: () => void;
    const gone = new Promise<void>((resolve) => (ended = resolve));
    const port = await serve(async () => {
      const { body, headers, writer } = fetchEventStream();
      writer.signal.addEventListener('abort', ended);
      writer.send('ready', {});
      return new Response(body, { headers });
    });
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/events`, { signal: controller.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(
      'event: ready\ndata: {}\n\n',
    );
    controller.abort();
    await gone;
  });
});
