import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type EventStreamWriter, fetchEventStream, nodeEventStream } from './event-stream.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

const read = (body: ReadableStream<Uint8Array>) => new Response(body).text();

describe('fetchEventStream', () => {
  it('writes event frames with JSON data and comment lines, and ends', async () => {
    const { body, headers, writer } = fetchEventStream();
    expect(headers['content-type']).toBe('text/event-stream');
    writer.send('ready', { threadId: 't' });
    writer.comment('keep-alive');
    writer.send('update', 'two\nlines');
    writer.end();
    expect(writer.signal.aborted).toBe(true);
    // Nothing is written once ended.
    writer.send('late', 1);
    expect(await read(body)).toBe(
      'event: ready\ndata: {"threadId":"t"}\n\n: keep-alive\n\nevent: update\ndata: "two\\nlines"\n\n',
    );
  });

  it('aborts its signal when the reader goes away', async () => {
    const { body, writer } = fetchEventStream();
    await body.cancel();
    expect(writer.signal.aborted).toBe(true);
    expect(() => writer.send('after', 1)).not.toThrow();
  });
});

describe('nodeEventStream', () => {
  it('writes the head with the first frame, and aborts its signal when the client goes', async () => {
    let opened!: (writer: EventStreamWriter) => void;
    const open = new Promise<EventStreamWriter>((resolve) => (opened = resolve));
    server = createServer((_req, res) => {
      const writer = nodeEventStream(res);
      writer.send('ready', { n: 1 });
      opened(writer);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: controller.signal });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const writer = await open;
    const first = await res.body!.getReader().read();
    expect(new TextDecoder().decode(first.value)).toBe('event: ready\ndata: {"n":1}\n\n');
    const gone = new Promise((resolve) => writer.signal.addEventListener('abort', resolve));
    controller.abort();
    await gone;
  });
});
