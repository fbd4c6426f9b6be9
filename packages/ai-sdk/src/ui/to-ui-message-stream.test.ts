import { chatWorkflow, defineTool, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, encodeBase64, toolOutput } from '@skein/spec';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromLanguageModel } from '../model/from-language-model.js';
import {
  finishPart,
  streamOf,
  textParts,
  toolCallParts,
  usageV3,
} from '../test-support/stream-parts.js';
import { createUIMessageStreamResponse } from './sse.js';
import { lastMessage, readResponseChunks } from './test-support/ai-reader.js';
import { chatEngine } from './test-support/chat-fixture.js';
import { collect, typesOf } from './test-support/read-stream.js';
import { toUIMessageStream } from './to-ui-message-stream.js';

describe('toUIMessageStream', () => {
  it('streams a chat turn as the parts the ai package reads into one message', async () => {
    const { engine } = chatEngine();
    const stream = toUIMessageStream(
      (onEvent, signal) => engine.send('t1', 'hello there', { onEvent, signal }),
      { threadId: 't1', messageId: 'answer-1', skeinData: 'off' },
    );
    const chunks = await readResponseChunks(createUIMessageStreamResponse({ stream }));
    expect(typesOf(chunks)).toEqual([
      'start',
      'start-step',
      'text-start',
      ...Array(4).fill('text-delta'),
      'text-end',
      'finish-step',
      'finish',
    ]);
    const message = await lastMessage(chunks);
    expect(message.id).toBe('answer-1');
    expect(message.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 're: hello there', state: 'done' },
    ]);
  });

  it('shows a tool call and its result in one step, the answer in the next', async () => {
    const { engine } = chatEngine();
    const chunks = await collect(
      toUIMessageStream((onEvent) => engine.send('t2', 'weather?', { onEvent }), {
        threadId: 't2',
        skeinData: 'off',
      }),
    );
    expect(typesOf(chunks)).toEqual([
      'start',
      'start-step',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'start-step',
      'text-start',
      ...Array(chunks.length - 12).fill('text-delta'),
      'text-end',
      'finish-step',
      'finish',
    ]);
    const message = await lastMessage(chunks);
    expect(message.parts.filter((p) => p.type !== 'text')).toEqual([
      { type: 'step-start' },
      expect.objectContaining({
        type: 'tool-weather',
        toolCallId: 'call-weather',
        state: 'output-available',
        input: { city: 'Lisbon' },
        output: { city: 'Lisbon', sky: 'sunny' },
      }),
      { type: 'step-start' },
    ]);
    expect(message.parts.at(-1)).toMatchObject({
      type: 'text',
      text: 'Done: {"city":"Lisbon","sky":"sunny"}',
    });
  });

  it('streams a tool call’s input as the model writes it, before the call is whole', async () => {
    let call = 0;
    const model = new MockLanguageModelV3({
      doStream: async () =>
        call++ === 0
          ? streamOf([
              ...toolCallParts('w1', 'weather', '{"city":"Lisbon"}'),
              finishPart('tool-calls', usageV3(5, 5)),
            ])
          : streamOf([...textParts('Sunny.'), finishPart('stop', usageV3(5, 2))]),
    });
    const engine = new SkeinEngine({
      llm: fromLanguageModel(model),
      store: new InMemoryCheckpointStore(),
    });
    engine.registerTools([
      defineTool({
        name: 'weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        execute: () => 'sunny',
      }),
    ]);
    engine.registerWorkflow(chatWorkflow({ tools: ['weather'] }));
    const chunks = await collect(
      toUIMessageStream((onEvent) => engine.send('s1', 'weather?', { onEvent }), {
        threadId: 's1',
        skeinData: 'off',
      }),
    );
    const tool = chunks.filter((c) => c.type.startsWith('tool-input'));
    // One delta per piece the model streamed (5 characters each), then the whole input once.
    expect(typesOf(tool)).toEqual([
      'tool-input-start',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-available',
    ]);
    const deltas = tool.filter((c) => c.type === 'tool-input-delta') as {
      inputTextDelta: string;
    }[];
    expect(deltas.map((d) => d.inputTextDelta).join('')).toBe('{"city":"Lisbon"}');
    const message = await lastMessage(chunks);
    expect(message.parts).toContainEqual(
      expect.objectContaining({
        type: 'tool-weather',
        toolCallId: 'w1',
        state: 'output-available',
      }),
    );
  });

  it("sends Skein's own parts as transient data parts, which stay out of the message", async () => {
    const { engine } = chatEngine();
    const chunks = await collect(
      toUIMessageStream((onEvent) => engine.send('t3', 'hi', { onEvent }), { threadId: 't3' }),
    );
    const data = chunks.filter((c) => c.type.startsWith('data-skein-'));
    expect(new Set(data.map((c) => c.type))).toEqual(
      new Set(['data-skein-node', 'data-skein-checkpoint', 'data-skein-batch']),
    );
    expect(data.every((c) => 'transient' in c && c.transient === true)).toBe(true);
    expect(data.find((c) => c.type === 'data-skein-node')).toMatchObject({
      data: { nodeId: 'start', nodeType: 'START', state: 'started' },
    });
    const message = await lastMessage(chunks);
    expect(message.parts.map((p) => p.type)).toEqual(['step-start', 'text']);
  });

  it('says a summary was made with a data part; the summary call streams nothing', async () => {
    // A model that streams every answer, the summary too: none of the summary may reach the page.
    const llm = new ScriptedLLMClient(
      [
        (request) =>
          request.purpose === 'summary'
            ? { content: 'SECRET SUMMARY TEXT' }
            : { content: `re: ${contentText(request.messages.at(-1)!.content)}` },
      ],
      { whenExhausted: 'repeat-last' },
    );
    const engine = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
    engine.registerWorkflow(chatWorkflow({ compact: { threshold: 40 } }));
    await engine.send('t9', 'a first question with a few words in it');
    await engine.send('t9', 'a second question with a few words in it');
    const chunks = await collect(
      toUIMessageStream((onEvent) => engine.send('t9', 'and a third', { onEvent }), {
        threadId: 't9',
      }),
    );
    expect(JSON.stringify(chunks)).not.toContain('SECRET');
    expect(chunks.filter((c) => c.type === 'start-step')).toHaveLength(1);
    const summaries = chunks.filter((c) => c.type === 'data-skein-summary');
    expect(summaries).toEqual([
      {
        type: 'data-skein-summary',
        data: { threadId: 't9', nodeId: 'reply', batch: 1, summarized: 4 },
        transient: true,
      },
    ]);
    const message = await lastMessage(chunks);
    expect(message.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 're: and a third', state: 'done' },
    ]);
  });

  it('keeps them as message parts when asked, one per node visit', async () => {
    const { engine } = chatEngine();
    const chunks = await collect(
      toUIMessageStream((onEvent) => engine.send('t4', 'hi', { onEvent }), {
        threadId: 't4',
        skeinData: 'parts',
      }),
    );
    const message = await lastMessage(chunks);
    const nodes = message.parts.filter((p) => p.type === 'data-skein-node');
    expect(nodes.map((p) => (p as { data: { nodeId: string; state: string } }).data)).toEqual([
      expect.objectContaining({ nodeId: 'start', state: 'completed' }),
      expect.objectContaining({ nodeId: 'reply', state: 'completed' }),
      expect.objectContaining({ nodeId: 'end', state: 'completed' }),
    ]);
  });

  it('ends with an error part when the run cannot start, naming why', async () => {
    const { engine } = chatEngine();
    const chunks = await collect(
      toUIMessageStream((onEvent) => engine.send('t5', 'hi', { onEvent, workflowId: 'nope' }), {
        threadId: 't5',
      }),
    );
    expect(typesOf(chunks)).toEqual(['start', 'error']);
    expect(chunks[1]).toMatchObject({ errorText: expect.stringContaining('nope') });
  });

  it('ends with an abort part when the run is cancelled', async () => {
    const { engine } = chatEngine({ tokenDelayMs: 5 });
    const stop = new AbortController();
    const chunks: string[] = [];
    const reader = toUIMessageStream(
      (onEvent, signal) => engine.send('t6', 'slow', { onEvent, signal }),
      {
        threadId: 't6',
        signal: stop.signal,
        skeinData: 'off',
      },
    ).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.type);
      if (value.type === 'text-delta') stop.abort();
    }
    expect(chunks.at(-1)).toBe('abort');
    expect(chunks).not.toContain('finish');
    expect((await engine.getThread('t6'))?.status).toBe('CANCELLED');
  });
});

describe('toUIMessageStream with files', () => {
  // A generated file comes whole with the model's answer (`llm:response`: the engine streams no
  // file events), so after the text and any tool input streamed before it.
  it('sends a generated file with the model answer, and a tool image after its output', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]);
    const model = new MockLanguageModelV3({
      doStream: [
        streamOf([
          ...textParts('drawn:'),
          { type: 'file', mediaType: 'image/png', data: png },
          ...toolCallParts('c1', 'snap', '{}'),
          finishPart('tool-calls', usageV3(1, 1)),
        ]),
        streamOf([...textParts('done'), finishPart('stop', usageV3(1, 1))]),
      ],
    });
    const engine = new SkeinEngine({
      llm: fromLanguageModel(model),
      store: new InMemoryCheckpointStore(),
    });
    engine.registerTool(
      defineTool({
        name: 'snap',
        description: 'Takes a picture',
        parameters: { type: 'object', properties: {} },
        execute: async () =>
          toolOutput({
            content: [
              { type: 'text', text: 'snapped' },
              { type: 'image', mediaType: 'image/png', data: png },
            ],
          }),
      }),
    );
    engine.registerWorkflow(chatWorkflow({ tools: ['snap'] }));
    const chunks = await collect(
      toUIMessageStream((onEvent) => engine.send('t-files', 'draw', { onEvent }), {
        threadId: 't-files',
        skeinData: 'off',
      }),
    );
    const url = `data:image/png;base64,${encodeBase64(png)}`;
    expect(typesOf(chunks).slice(0, 12)).toEqual([
      'start',
      'start-step',
      'text-start',
      ...Array(2).fill('text-delta'),
      'text-end',
      'tool-input-start',
      'tool-input-delta',
      'file',
      'tool-input-available',
      'tool-output-available',
      'file',
    ]);
    expect(chunks.filter((c) => c.type === 'file')).toEqual([
      { type: 'file', url, mediaType: 'image/png' },
      { type: 'file', url, mediaType: 'image/png' },
    ]);
  });
});
