import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PIXEL_PNG, SILENT_WAV } from '../conformance/fixture-workflows.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';

let server: SkeinMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves one workflow ending with `output` and calls it. */
async function call(output: unknown): Promise<CallToolResult> {
  const engine = new SkeinEngine({});
  engine.registerWorkflow(
    new WorkflowBuilder('make', '1')
      .start()
      .variable('set', { values: { result: output } })
      .end('end', { output: 'vars.result' })
      .chain('start', 'set', 'end')
      .build(),
  );
  server = createMcpServer(engine, { name: 'parts', version: '1.0.0' });
  const client = await connectInMemory(server);
  return (await client.callTool({ name: 'make', arguments: {} })) as CallToolResult;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('a workflow output with content parts', () => {
  it('answers an object with `content` parts as text, image, audio and resource blocks', async () => {
    const pdf = utf8('%PDF-1.4 tiny');
    const result = await call({
      content: [
        { type: 'text', text: 'Here:' },
        { type: 'image', mediaType: 'image/png', data: PIXEL_PNG },
        { type: 'audio', mediaType: 'audio/wav', data: SILENT_WAV },
        { type: 'file', mediaType: 'application/pdf', filename: 'q3 report.pdf', data: pdf },
        { type: 'file', mediaType: 'text/csv', filename: 'file:///tmp/a.csv', data: utf8('a,b') },
      ],
      note: 'kept in the structured report',
    });
    const { threadId } = result.structuredContent as { threadId: string };
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([
      { type: 'text', text: 'Here:' },
      { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      { type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' },
      {
        type: 'resource',
        resource: {
          uri: `skein://threads/${threadId}/files/3/q3%20report.pdf`,
          mimeType: 'application/pdf',
          blob: pdf,
        },
      },
      // A textual type that decodes as UTF-8 is the resource's text; a file name that is a URI
      // is its URI.
      {
        type: 'resource',
        resource: { uri: 'file:///tmp/a.csv', mimeType: 'text/csv', text: 'a,b' },
      },
    ]);
    expect(result.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: { note: 'kept in the structured report' },
    });
  });

  it('answers a list of parts as well; a part by URL is a resource link, never fetched', async () => {
    const result = await call([
      { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/docs/spec.pdf' },
      { type: 'image', mediaType: 'image/*', url: 'https://example.com/cat' },
    ]);
    expect(result.content).toEqual([
      {
        type: 'resource_link',
        uri: 'https://example.com/docs/spec.pdf',
        name: 'spec.pdf',
        mimeType: 'application/pdf',
      },
      { type: 'resource_link', uri: 'https://example.com/cat', name: 'cat', mimeType: 'image/*' },
    ]);
  });

  it('keeps text and JSON outputs as one text block, and parts checkContent refuses as JSON', async () => {
    expect((await call('plain')).content).toEqual([{ type: 'text', text: 'plain' }]);
    expect((await call({ n: 1 })).content).toEqual([{ type: 'text', text: '{\n  "n": 1\n}' }]);
    // `mimeType` is MCP's name, not a part's: the output is not parts, and reads as it was.
    const wrong = { content: [{ type: 'image', mimeType: 'image/png', data: PIXEL_PNG }] };
    expect((await call(wrong)).content).toEqual([
      { type: 'text', text: JSON.stringify(wrong, null, 2) },
    ]);
  });
});
