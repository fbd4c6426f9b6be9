import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendChunkedBody } from './send-chunked-body.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function listen(handle: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handle);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const head = (port: number) => `POST /up HTTP/1.1\r\nhost: 127.0.0.1:${port}`;

describe('sendChunkedBody', () => {
  it('sends the whole body in chunks and reads the answer', async () => {
    let received = 0;
    const port = await listen((req, res) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      req.on('end', () => res.end(JSON.stringify({ chunked: req.headers['transfer-encoding'] })));
    });
    const answer = await sendChunkedBody(port, head(port), 100_000);
    expect(answer).toEqual({ status: 200, body: '{"chunked":"chunked"}', error: undefined });
    expect(received).toBeGreaterThanOrEqual(100_000);
  });

  it('shows a server that resets the connection under its answer', async () => {
    const port = await listen((req) => {
      req.once('data', () => req.socket.resetAndDestroy());
    });
    const answer = await sendChunkedBody(port, head(port), 1024 * 1024);
    expect(answer).toMatchObject({ status: 0, body: undefined, error: 'ECONNRESET' });
  });
});
