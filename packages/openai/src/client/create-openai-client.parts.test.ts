import type { AttachmentRef, LLMMessage } from '@skein/spec';
import { InvalidArgumentError } from '@skein/spec';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
  type WireContentPart,
} from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient, type OpenAIClientOptions } from './create-openai-client.js';
import { digestOf, PDF, PDF_BASE64, PNG, PNG_BASE64, rejection, WAV } from './parts/test-parts.js';

// What `generate` now puts on the wire for content in parts, as the testkit's server records it.

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface SentMessage {
  role: string;
  content: string | WireContentPart[] | null;
  tool_call_id?: string;
}

async function sentMessages(
  messages: LLMMessage[],
  options: Partial<OpenAIClientOptions> = {},
): Promise<SentMessage[]> {
  server = await startOpenAICompatibleServer({ script: [{ content: 'ok' }] });
  const client = createOpenAIClient({ baseURL: server.url, apiKey: 'k', model: 'm', ...options });
  await client.generate({ threadId: 't', nodeId: 'n', messages, tools: [] });
  return (server.requests[0]!.body as { messages: SentMessage[] }).messages;
}

const call = (id: string) => ({ id, name: 'plot', arguments: '{}' });

describe('createOpenAIClient sends content in parts', () => {
  it('sends a user message’s parts as Chat Completions parts, in order', async () => {
    const messages = await sentMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', mediaType: 'image/png', data: PNG },
          { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' },
          { type: 'audio', mediaType: 'audio/wav', data: WAV },
        ],
      },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          {
            type: 'input_audio',
            input_audio: { data: Buffer.from(WAV).toString('base64'), format: 'wav' },
          },
        ],
      },
    ]);
  });

  it('sends the tool results of one turn, then one user message with their media', async () => {
    const messages = await sentMessages([
      { role: 'user', content: 'Plot both.' },
      { role: 'assistant', content: '', toolCalls: [call('c1'), call('c2')] },
      {
        role: 'tool',
        toolCallId: 'c1',
        content: [
          { type: 'text', text: 'Sales:' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
      },
      { role: 'tool', toolCallId: 'c2', content: 'no data' },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
    expect(messages.slice(2)).toEqual([
      { role: 'tool', content: 'Sales:', tool_call_id: 'c1' },
      { role: 'tool', content: 'no data', tool_call_id: 'c2' },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Tool call c1 returned image 1; a tool message cannot carry it, so it follows:',
          },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        ],
      },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('reads a file by URL through the fetcher and a part by ref through resolveRef', async () => {
    const ref: AttachmentRef = { digest: digestOf(PNG), size: PNG.length };
    const fetched: string[] = [];
    const messages = await sentMessages(
      [
        {
          role: 'user',
          content: [
            { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/q3.pdf' },
            { type: 'image', mediaType: 'image/png', ref },
          ],
        },
      ],
      {
        fetcher: async (url) => {
          fetched.push(url);
          return { bytes: PDF, mediaType: 'application/pdf' };
        },
        resolveRef: async () => PNG,
      },
    );
    expect(fetched).toEqual(['https://example.com/q3.pdf']);
    expect(messages[0]!.content).toEqual([
      {
        type: 'file',
        file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: 'part-0.pdf' },
      },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
    ]);
  });

  it.each([
    [
      'a system message’s image',
      { role: 'system', content: [{ type: 'image', mediaType: 'image/png', data: PNG }] },
      'role',
    ],
    [
      'audio by URL with no fetcher',
      {
        role: 'user',
        content: [{ type: 'audio', mediaType: 'audio/wav', url: 'https://x.test/a.wav' }],
      },
      'needs-bytes',
    ],
  ] as const)('refuses %s, naming the part, and sends nothing', async (_, message, kind) => {
    server = await startOpenAICompatibleServer({ script: [{ content: 'ok' }] });
    const client = createOpenAIClient({ baseURL: server.url, apiKey: 'k', model: 'm' });
    const error = await rejection(
      client.generate({
        threadId: 't',
        nodeId: 'n',
        messages: [{ role: 'user', content: 'hi' }, message as LLMMessage],
        tools: [],
      }),
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'messages[1].content[0]', details: { kind } });
    expect(server.requests).toHaveLength(0);
  });

  it.each(['fetcher', 'resolveRef'])('refuses a %s that is not a function', (name) => {
    expect(() => createOpenAIClient({ model: 'm', apiKey: 'k', [name]: 'yes' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: name }),
    );
  });
});
