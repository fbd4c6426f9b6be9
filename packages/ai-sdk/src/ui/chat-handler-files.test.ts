import { createHash } from 'node:crypto';
import type { LanguageModelV3CallOptions, LanguageModelV3FilePart } from '@ai-sdk/provider';
import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine, type Tool } from '@skein/core';
import { toolOutput } from '@skein/spec';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { fromLanguageModel } from '../model/from-language-model.js';
import { base64Of, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import {
  finishPart,
  streamOf,
  textParts,
  toolCallParts,
  usageV3,
} from '../test-support/stream-parts.js';
import { type RunningChatServer, startChatServer } from './start-chat-server.js';
import { lastMessage } from './test-support/ai-reader.js';

// useChat files through the chat handler, with an AI SDK model behind fromLanguageModel: what
// is stored, what the model gets, what the stream and the stored chat give back.

const DRAWN = pngBytes(1, 1, 1);
const CHART = pngBytes(2, 2, 2);
const PDF_URL = `data:application/pdf;base64,${base64Of(PDF_BYTES)}`;

let server: RunningChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers by the last message: a PDF is summed up, `draw` draws, `chart` calls the tool. */
function model(prompts: LanguageModelV3CallOptions['prompt'][]) {
  return new MockLanguageModelV3({
    doStream: async ({ prompt }) => {
      prompts.push(prompt);
      const last = prompt.at(-1)!;
      if (last.role === 'tool')
        return streamOf([...textParts('Here is the chart.'), finishPart('stop', usageV3(1, 1))]);
      const parts = last.content as readonly { type: string; text?: string }[];
      const text = parts.map((p) => p.text ?? '').join('');
      if (text === 'draw')
        return streamOf([
          ...textParts('A dot:'),
          { type: 'file', mediaType: 'image/png', data: DRAWN },
          finishPart('stop', usageV3(1, 1)),
        ]);
      if (text === 'chart')
        return streamOf([
          ...toolCallParts('call-chart', 'chart', '{}'),
          finishPart('tool-calls', usageV3(1, 1)),
        ]);
      const files = parts.filter((p) => p.type === 'file').length;
      return streamOf([...textParts(`${files} file(s) read`), finishPart('stop', usageV3(1, 1))]);
    },
  });
}

const chart: Tool<Record<string, never>> = {
  name: 'chart',
  description: 'Draws a chart',
  parameters: { type: 'object', properties: {} },
  execute: () =>
    toolOutput({
      content: [
        { type: 'text', text: 'chart drawn' },
        { type: 'image', mediaType: 'image/png', data: CHART },
      ],
    }),
};

async function serve() {
  const prompts: LanguageModelV3CallOptions['prompt'][] = [];
  const engine = new SkeinEngine({
    llm: fromLanguageModel(model(prompts)),
    store: new InMemoryCheckpointStore(),
  });
  engine.registerTool(chart);
  engine.registerWorkflow(chatWorkflow({ tools: ['chart'] }));
  server = await startChatServer({ engine });
  const transport = new DefaultChatTransport<UIMessage>({ api: `${server.url}/api/chat` });
  return { engine, prompts, transport, url: server.url };
}

const withPdf = (id: string, text = 'sum it up'): UIMessage => ({
  id,
  role: 'user',
  parts: [
    { type: 'text', text },
    { type: 'file', mediaType: 'application/pdf', filename: 'spec.pdf', url: PDF_URL },
  ],
});
const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

async function submit(transport: DefaultChatTransport<UIMessage>, messages: UIMessage[]) {
  const stream = await transport.sendMessages({
    chatId: 'c1',
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  return lastMessage(stream as never, undefined);
}

async function post(url: string, messages: unknown[]) {
  const response = await fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'c1', messages, trigger: 'submit-message' }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error: { code: string; message: string } },
  };
}

describe('files in useChat through the chat handler', () => {
  it('stores a user file once by digest and sends the model its bytes as a file part', async () => {
    const { engine, prompts, transport } = await serve();
    const answer = await submit(transport, [withPdf('u1')]);
    expect(answer.parts.at(-1)).toMatchObject({ type: 'text', text: '1 file(s) read' });
    const stored = (await engine.getThread('c1'))!.conversation.getAllMessages();
    const digest = `sha256:${createHash('sha256').update(PDF_BYTES).digest('hex')}`;
    expect(stored.find((m) => m.role === 'user')!.content).toEqual([
      { type: 'text', text: 'sum it up' },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'spec.pdf',
        ref: { digest, size: PDF_BYTES.length },
      },
    ]);
    expect(await engine.readAttachment('c1', digest)).toEqual(PDF_BYTES);
    const sent = prompts[0]!.at(-1)!.content as readonly LanguageModelV3FilePart[];
    expect(sent[1]).toMatchObject({
      type: 'file',
      mediaType: 'application/pdf',
      filename: 'spec.pdf',
    });
    expect(Array.from(sent[1]!.data as Uint8Array)).toEqual(Array.from(PDF_BYTES));
  });

  it('refuses a bad file part with 400 naming it, storing nothing', async () => {
    const { engine, prompts, url } = await serve();
    const bad = {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'look' },
        {
          type: 'file',
          mediaType: 'image/png',
          url: `data:image/png;base64,${base64Of(PDF_BYTES)}`,
        },
      ],
    };
    const { status, body } = await post(url, [bad]);
    expect(status).toBe(400);
    expect(body.error.code).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toMatch(/^messages\[0\]\.parts\[1\] \(image part\): /);
    expect(await engine.getThread('c1')).toBeUndefined();
    expect(prompts).toHaveLength(0);
  });

  it('streams the files a model generated and a tool returned as file parts', async () => {
    const { transport } = await serve();
    const drawn = await submit(transport, [user('u1', 'draw')]);
    expect(drawn.parts.filter((p) => p.type === 'text' || p.type === 'file')).toEqual([
      expect.objectContaining({ type: 'text', text: 'A dot:' }),
      { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${base64Of(DRAWN)}` },
    ]);
    const charted = await submit(transport, [user('u1', 'draw'), drawn, user('u2', 'chart')]);
    const files = charted.parts.filter((p) => p.type === 'file');
    expect(files).toEqual([
      { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${base64Of(CHART)}` },
    ]);
    expect(charted.parts.at(-1)).toMatchObject({ type: 'text', text: 'Here is the chart.' });
  });

  it('reads a stored chat back with its file parts', async () => {
    const { transport, url } = await serve();
    const first = await submit(transport, [withPdf('u1')]);
    const drawn = await submit(transport, [withPdf('u1'), first, user('u2', 'draw')]);
    await submit(transport, [withPdf('u1'), first, user('u2', 'draw'), drawn, user('u3', 'chart')]);
    const { messages } = (await (await fetch(`${url}/api/chat/c1/messages`)).json()) as {
      messages: UIMessage[];
    };
    expect(messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(messages[0]!.parts).toEqual(withPdf('u1').parts);
    expect(messages[3]!.parts).toContainEqual({
      type: 'file',
      mediaType: 'image/png',
      url: `data:image/png;base64,${base64Of(DRAWN)}`,
    });
    const chartAnswer = messages[5]!.parts;
    const tool = chartAnswer.findIndex((p) => p.type === 'tool-chart');
    expect(chartAnswer[tool]).toMatchObject({ state: 'output-available', output: 'chart drawn' });
    expect(chartAnswer[tool + 1]).toEqual({
      type: 'file',
      mediaType: 'image/png',
      url: `data:image/png;base64,${base64Of(CHART)}`,
    });
  });

  it('compares files in the history: the same PDF goes on, another one is HISTORY_MISMATCH', async () => {
    const { engine, transport, url } = await serve();
    const first = await submit(transport, [withPdf('u1')]);
    const next = await submit(transport, [withPdf('u1'), first, user('u2', 'and now?')]);
    expect(next.parts.at(-1)).toMatchObject({ type: 'text', text: '0 file(s) read' });
    const other = withPdf('u1');
    (other.parts[1] as { url: string }).url = `data:application/pdf;base64,${base64Of(
      new TextEncoder().encode('%PDF-1.4\nother\n'),
    )}`;
    const { status, body } = await post(url, [other, first, user('u3', 'again')]);
    expect(status).toBe(409);
    expect(body.error.code).toBe('HISTORY_MISMATCH');
    expect(body.error.message).toMatch(
      /messages\[0\] differs from the stored user message: piece 2/,
    );
    expect((await engine.getThread('c1'))!.conversation.getAllMessages()).toHaveLength(4);
  });
});
