import type { MessageContent } from '@skein/spec';
import { generateText, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { base64Of, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import { usageV3 } from '../test-support/stream-parts.js';
import { toV3ToolResultOutput } from './to-v3-tool-result-output.js';
import { toV3UserContent } from './to-v3-user-content.js';

function mockModel() {
  return new MockLanguageModelV3({
    // The model takes https images itself, so `ai` sends the URL on rather than downloading it.
    supportedUrls: { 'image/*': [/^https:\/\//] },
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usageV3(1, 1),
      warnings: [],
    }),
  });
}

// Through `ai`'s own prompt schema and conversion, so a shape the AI SDK does not take fails here
// even where the declared types would let it by.
describe('the part mappers through generateText and MockLanguageModelV3', () => {
  it('delivers user parts and tool-result content to the model part by part', async () => {
    const png = pngBytes(1, 2, 3, 4);
    const user: MessageContent = [
      { type: 'text', text: 'compare these' },
      { type: 'image', mediaType: 'image/png', data: png },
      { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/b.jpg' },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'spec.pdf',
        data: base64Of(PDF_BYTES),
      },
    ];
    const toolContent: MessageContent = [
      { type: 'text', text: 'rendered:' },
      { type: 'image', mediaType: 'image/png', data: base64Of(png) },
    ];
    const messages: ModelMessage[] = [
      { role: 'user', content: await toV3UserContent(user, 'messages[0].content') },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'render', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'render',
            output: await toV3ToolResultOutput(toolContent, 'messages[2].content'),
          },
        ],
      },
    ] as ModelMessage[];
    const model = mockModel();
    await generateText({ model, messages });

    const prompt = model.doGenerateCalls[0]!.prompt;
    expect(prompt).toHaveLength(3);
    const [userMessage, , toolMessage] = prompt;
    expect(userMessage!.role).toBe('user');
    const sent = userMessage!.content as unknown as readonly Record<string, unknown>[];
    expect(sent).toHaveLength(4);
    expect(sent[0]).toEqual({ type: 'text', text: 'compare these' });
    expect(sent[1]).toMatchObject({ type: 'file', mediaType: 'image/png', data: png });
    expect(sent[2]).toMatchObject({
      type: 'file',
      mediaType: 'image/jpeg',
      data: new URL('https://example.com/b.jpg'),
    });
    expect(sent[3]).toMatchObject({
      type: 'file',
      mediaType: 'application/pdf',
      filename: 'spec.pdf',
      data: PDF_BYTES,
    });
    expect(toolMessage).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'rendered:' },
              { type: 'image-data', data: base64Of(png), mediaType: 'image/png' },
            ],
          },
        },
      ],
    });
  });
});
