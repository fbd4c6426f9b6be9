import { type ContentPart, encodeBase64 } from '@skein/spec';
import {
  lastUserText,
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '@skein/testkit';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { PDF, PDF_BASE64, PNG, PNG_BASE64 } from './test-parts.js';
import { toAssistantContent } from './text-only-content.js';
import { toChatContent } from './to-chat-content.js';
import { toToolRunMessages } from './to-tool-messages.js';

// The mappers' output sent by the official client to the testkit's server on 127.0.0.1: what
// the server records is what a provider would receive.
let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function send(messages: ChatCompletionMessageParam[], content = 'ok') {
  server = await startOpenAICompatibleServer({
    script: [(request) => ({ content: `${content}: ${lastUserText(request) ?? ''}` })],
  });
  const client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
  const completion = await client.chat.completions.create({ model: 'gpt-4o', messages });
  const body = server.requests[0]!.body;
  if (typeof body === 'string') throw new Error('expected a JSON body');
  return { answer: completion.choices[0]!.message.content, body };
}

describe('parts over the Chat Completions wire', () => {
  it('sends a vision call part by part', async () => {
    const content: ContentPart[] = [
      { type: 'text', text: 'Which is bigger?' },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'image', mediaType: 'image/*', url: 'https://example.com/b.jpg' },
    ];
    const { answer, body } = await send([
      { role: 'user', content: await toChatContent(content, 'messages[0].content') },
    ]);
    expect(answer).toBe('ok: Which is bigger?');
    expect(body.messages?.[0]?.content).toEqual([
      { type: 'text', text: 'Which is bigger?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
      { type: 'image_url', image_url: { url: 'https://example.com/b.jpg' } },
    ]);
  });

  it('sends a PDF as a file part whose data URL gives the bytes back', async () => {
    const content: ContentPart[] = [
      { type: 'file', mediaType: 'application/pdf', filename: 'q3.pdf', data: PDF },
      { type: 'text', text: 'Summarise.' },
    ];
    const { body } = await send([
      { role: 'user', content: await toChatContent(content, 'messages[0].content') },
    ]);
    const parts = body.messages?.[0]?.content;
    if (!Array.isArray(parts)) throw new Error('expected parts');
    const file = parts[0]!.file!;
    expect(file).toEqual({
      file_data: `data:application/pdf;base64,${PDF_BASE64}`,
      filename: 'q3.pdf',
    });
    expect(new Uint8Array(Buffer.from(file.file_data!.split(',')[1]!, 'base64'))).toEqual(PDF);
  });

  it('sends a tool result image as the tool text, then a user message with the image', async () => {
    const tools = await toToolRunMessages([
      {
        toolCallId: 'call_1',
        content: [{ type: 'image', mediaType: 'image/png', data: encodeBase64(PNG) }],
        at: 'messages[2].content',
      },
    ]);
    const { answer, body } = await send([
      { role: 'user', content: 'Plot it.' },
      {
        role: 'assistant',
        content: toAssistantContent([{ type: 'text', text: '' }], 'messages[1].content'),
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'plot', arguments: '{}' } },
        ],
      },
      ...tools,
    ]);
    expect(body.messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(body.messages?.[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '[image 1 attached below]',
    });
    expect(body.messages?.[3]?.content?.[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG_BASE64}` },
    });
    expect(answer).toMatch(/^ok: Tool call call_1 returned image 1/);
  });
});
