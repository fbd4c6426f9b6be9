import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { pipeUIMessageStreamToResponse } from './sse.js';
import type { UIChunk } from './ui-chunk.js';

describe('pipeUIMessageStreamToResponse', () => {
  it('writes one data frame per part, then [DONE], with the UI stream headers', async () => {
    const parts = [{ type: 'start', messageId: 'm1' }, { type: 'finish' }] as unknown as UIChunk[];
    const server = createServer((_req, response) => {
      const stream = new ReadableStream<UIChunk>({
        start: (controller) => {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      void pipeUIMessageStreamToResponse({ response, stream, status: 201 });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`);
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
      expect(await res.text()).toBe(
        `${parts.map((p) => `data: ${JSON.stringify(p)}\n\n`).join('')}data: [DONE]\n\n`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
