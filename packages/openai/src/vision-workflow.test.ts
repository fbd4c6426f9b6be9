import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine, type Tool } from '@skein/core';
import { type ContentPart, type MediaPart, toolOutput } from '@skein/spec';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
  type WireMessage,
} from '@skein/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from './client/create-openai-client.js';

// Issue 44's acceptance test: a photo in, a chart out of a tool, an answer back, with the real
// engine, a store, this client and a server that records every request byte for byte.

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PHOTO = Uint8Array.from([...SIGNATURE, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1]);
const CHART = Uint8Array.from([...SIGNATURE, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 2]);
const png = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;

const ANSWER = 'A red boat in a harbour; the chart shows the sky is the brightest part.';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chart: Tool<{ metric: string }> = {
  name: 'draw_chart',
  description: 'Charts a measure of the last photo',
  parameters: {
    type: 'object',
    properties: { metric: { type: 'string' } },
    required: ['metric'],
  },
  execute: () =>
    toolOutput({
      content: [
        { type: 'text', text: 'Brightness by row:' },
        { type: 'image', mediaType: 'image/png', data: CHART },
      ],
    }),
};

describe('a vision workflow on the Chat Completions wire', () => {
  it('sends the photo, the chart a tool drew after its tool message, and stores the answer', async () => {
    server = await startOpenAICompatibleServer({
      script: [
        {
          toolCalls: [
            { id: 'call_chart', name: 'draw_chart', arguments: { metric: 'brightness' } },
          ],
        },
        { content: ANSWER },
      ],
    });
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({
      llm: createOpenAIClient({ baseURL: server.url, apiKey: 'k', model: 'vision-model' }),
      store,
    });
    engine.registerTool(chart);
    engine.registerWorkflow(
      chatWorkflow({ systemPrompt: 'You look at photos.', tools: ['draw_chart'] }),
    );

    const { result } = await engine.send('photo-1', {
      content: [
        { type: 'text', text: 'What is in this photo?' },
        { type: 'image', mediaType: 'image/png', data: PHOTO },
      ],
    });
    expect(result).toMatchObject({ status: 'COMPLETED', output: ANSWER });

    const sent = server.requests.map((r) => (r.body as { messages: WireMessage[] }).messages);
    expect(sent).toHaveLength(2);
    const system = { role: 'system', content: 'You look at photos.' };
    const photo = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this photo?' },
        { type: 'image_url', image_url: { url: png(PHOTO) } },
      ],
    };
    expect(sent[0]).toEqual([system, photo]);

    expect(sent[1]).toEqual([
      system,
      photo,
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_chart',
            type: 'function',
            function: { name: 'draw_chart', arguments: '{"metric":"brightness"}' },
          },
        ],
      },
      { role: 'tool', content: 'Brightness by row:', tool_call_id: 'call_chart' },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Tool call call_chart returned image 1; a tool message cannot carry it, so it follows:',
          },
          { type: 'image_url', image_url: { url: png(CHART) } },
        ],
      },
    ]);

    // The thread keeps the chart with its tool message (once, by digest) and ends with the answer.
    const stored = (await store.load('photo-1'))!.conversation.messages;
    const tool = stored.find((m) => m.role === 'tool')!.content as readonly ContentPart[];
    expect(tool[0]).toEqual({ type: 'text', text: 'Brightness by row:' });
    const drawn = tool[1] as MediaPart;
    expect(drawn).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(await store.readAttachment('photo-1', drawn.ref!.digest)).toEqual(CHART);
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: ANSWER });
  });
});
