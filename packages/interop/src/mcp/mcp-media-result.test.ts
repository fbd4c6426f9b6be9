// An MCP tool's images, audio and embedded files reach the model as parts of the tool message,
// through the real SDK Client and McpServer over the in-memory transport and a @skein/core thread.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { chartToolMessage } from '../test-support/chart-thread.js';
import { fromMcpClient } from './from-mcp-client.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
const PDF = Buffer.from('%PDF-1.4 tiny').toString('base64');

const BLOCKS = [
  { type: 'text', text: 'Your chart:' },
  { type: 'image', data: PNG, mimeType: 'image/png' },
  { type: 'audio', data: WAV, mimeType: 'audio/wav' },
  {
    type: 'resource',
    resource: { uri: 'file:///reports/q3%20sales.pdf', mimeType: 'application/pdf', blob: PDF },
  },
  { type: 'resource', resource: { uri: 'test://notes', mimeType: 'text/plain', text: 'up 4%' } },
  { type: 'resource_link', uri: 'https://example.com/raw.csv', name: 'raw data' },
] as const;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function client(blocks: readonly unknown[]): Promise<Client> {
  const server = new McpServer({ name: 'charts', version: '1.0.0' });
  server.registerTool('chart', { description: 'Draws a chart' }, async () => ({
    content: blocks as never,
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'test', version: '1.0.0' });
  await mcp.connect(clientSide);
  closers.push(async () => {
    await mcp.close();
    await server.close();
  });
  return mcp;
}

/** The tool message a thread stores when its model calls `chart`, which answers `blocks`. */
async function toolMessage(blocks: readonly unknown[]) {
  return chartToolMessage(await fromMcpClient(await client(blocks)));
}

describe('an MCP tool result with media, in a Skein thread', () => {
  it('shows the model the image, audio and embedded file as parts, the rest as text', async () => {
    const message = await toolMessage(BLOCKS);
    expect(message.content).toEqual([
      {
        type: 'text',
        text: 'Your chart:\n[resource test://notes]\nup 4%\n[resource link https://example.com/raw.csv]',
      },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'audio', mediaType: 'audio/wav', data: WAV },
      { type: 'file', mediaType: 'application/pdf', filename: 'q3 sales.pdf', data: PDF },
    ]);
  });

  it('keeps media bytes in the parts only: metadata.data holds the blocks read as text', async () => {
    const message = await toolMessage(BLOCKS);
    expect(message.metadata).toEqual({ isError: false, data: { content: BLOCKS.slice(4) } });
    for (const bytes of [PNG, WAV, PDF])
      expect(JSON.stringify(message.metadata)).not.toContain(bytes);
  });

  it('an image-only result is described in text before the image', async () => {
    const message = await toolMessage([{ type: 'image', data: PNG, mimeType: 'image/png' }]);
    expect(message.content).toEqual([
      { type: 'text', text: '[image image/png]' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ]);
  });

  it('an image whose bytes are not its declared type becomes a note, and the rest still arrives', async () => {
    const message = await toolMessage([
      { type: 'text', text: 'two pictures' },
      { type: 'image', data: PNG, mimeType: 'image/jpeg' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ]);
    expect(message.metadata).toMatchObject({ isError: false });
    expect(message.content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(/^two pictures\n\[image image\/jpeg\] \(not kept: .+\)$/),
      },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ]);
  });
});
