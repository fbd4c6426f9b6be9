import {
  encodeBase64,
  findNonJsonValue,
  InvalidArgumentError,
  type LLMMessage,
  toolOutput,
} from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { attachmentDigest } from '../checkpoint/attachments.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { SkeinEngine } from './skein-engine.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

function chatEngine(answer: (request: { messages: readonly LLMMessage[] }) => object, tool?: Tool) {
  const llm = new ScriptedLLMClient(answer);
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ llm, store });
  if (tool) engine.registerTool(tool);
  engine.registerWorkflow(chatWorkflow(tool ? { tools: [tool.name] } : {}));
  return { engine, llm, store };
}

async function refusal(call: Promise<unknown>): Promise<InvalidArgumentError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(InvalidArgumentError.isInstance(error)).toBe(true);
  return error as InvalidArgumentError;
}

describe('engine.send with parts', () => {
  it('stores a user message with an image part, its bytes once by digest, and shows it to the model', async () => {
    const { engine, llm, store } = chatEngine(() => ({ content: 'a cat' }));
    const content = [
      { type: 'text', text: 'what is this?' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ] as const;
    const { result } = await engine.send('t1', { content });
    expect(result).toMatchObject({ status: 'COMPLETED', output: 'a cat' });
    const expected = [content[0], { ...content[1], data: encodeBase64(PNG) }];
    expect(llm.requests[0]!.messages.at(-1)!.content).toEqual(expected);
    const loaded = (await store.load('t1'))!;
    const ref = { digest: attachmentDigest(PNG), size: PNG.length };
    expect(loaded.conversation.messages.find((m) => m.role === 'user')!.content).toEqual([
      content[0],
      { type: 'image', mediaType: 'image/png', ref },
    ]);
    expect(await store.readAttachment('t1', ref.digest)).toEqual(PNG);
    // What a store encodes is plain JSON: no Uint8Array reached it.
    expect(findNonJsonValue(loaded, 'thread')).toBeUndefined();
    for (const checkpoint of await store.list('t1'))
      expect(findNonJsonValue(await store.load('t1', checkpoint.id), 'c')).toBeUndefined();
  });

  it.each([
    ['an unknown part type', { type: 'video', mediaType: 'video/mp4', data: 'AAAA' }, 'part-type'],
    [
      'PNG bytes labelled image/jpeg',
      { type: 'image', mediaType: 'image/jpeg', data: PNG },
      'signature',
    ],
    [
      'a file: URL',
      { type: 'file', mediaType: 'application/pdf', url: 'file:///etc/passwd' },
      'url',
    ],
  ])('refuses %s naming the part, leaving the store untouched', async (_, part, kind) => {
    const { engine, llm, store } = chatEngine(() => ({ content: 'ok' }));
    await engine.send('t1', 'hello');
    const before = await store.list('t1');
    const content = [{ type: 'text', text: 'look' }, part];
    const error = await refusal(engine.send('t1', { content } as never));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'message.content[1]' });
    expect(error.details).toMatchObject({ kind, index: 1 });
    expect(await store.list('t1')).toEqual(before);
    expect(llm.requests).toHaveLength(1);
    // A new thread is not created either.
    await refusal(engine.send('t2', { content } as never));
    expect(await store.load('t2')).toBeUndefined();
  });

  it('answers a thread paused for input with parts', async () => {
    const { engine, store } = chatEngine(() => ({ content: 'ok' }));
    engine.registerWorkflow(
      new WorkflowBuilder('ask', '1')
        .start()
        .userInteraction('q', { prompt: 'Your photo?' })
        .end()
        .chain('start', 'q', 'end')
        .build(),
    );
    await engine.run('ask', { threadId: 'a1' });
    const content = [{ type: 'image', mediaType: 'image/png', data: PNG }] as const;
    const { result } = await engine.send('a1', { content });
    expect(result.status).toBe('COMPLETED');
    const stored = (await store.load('a1'))!.conversation.messages;
    expect(stored.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'image',
          mediaType: 'image/png',
          ref: { digest: attachmentDigest(PNG), size: PNG.length },
        },
      ],
    });
  });
});

describe('tool results in parts', () => {
  function toolEngine(execute: () => unknown) {
    return chatEngine(
      (request) =>
        request.messages.at(-1)!.role === 'user'
          ? { toolCalls: [{ name: 'chart', arguments: {} }] }
          : { content: 'done' },
      {
        name: 'chart',
        description: 'Draws a chart',
        parameters: { type: 'object', properties: {} },
        execute,
      },
    );
  }

  it('gives the tool message the text, then the image the tool returned', async () => {
    const image = { type: 'image', mediaType: 'image/png', data: PNG } as const;
    const { engine, llm } = toolEngine(() =>
      toolOutput({ content: [{ type: 'text', text: 'sales by month' }, image], data: { n: 1 } }),
    );
    const { thread } = await engine.send('t1', 'chart please');
    const tool = thread.conversation.getAllMessages().find((m) => m.role === 'tool')!;
    expect(tool.content).toEqual([
      { type: 'text', text: 'sales by month' },
      { ...image, data: encodeBase64(PNG) },
    ]);
    expect(tool.metadata).toMatchObject({ isError: false, data: { n: 1 } });
    expect(llm.requests[1]!.messages.at(-1)!.content).toEqual(tool.content);
  });

  it('keeps a text-only toolOutput a string, as before', async () => {
    const { engine } = toolEngine(() => toolOutput({ content: [{ type: 'text', text: 'plain' }] }));
    const { thread } = await engine.send('t1', 'chart please');
    const tool = thread.conversation.getAllMessages().find((m) => m.role === 'tool')!;
    expect(tool.content).toBe('plain');
  });

  it('tells the model a part it cannot store, and runs on', async () => {
    const { engine } = toolEngine(() =>
      toolOutput({ content: [{ type: 'image', mediaType: 'image/jpeg', data: PNG }] }),
    );
    const { thread, result } = await engine.send('t1', 'chart please');
    expect(result.status).toBe('COMPLETED');
    const tool = thread.conversation.getAllMessages().find((m) => m.role === 'tool')!;
    expect(tool.metadata).toMatchObject({ isError: true, errorCode: 'TOOL_RESULT_NOT_JSON' });
    expect(tool.content).toContain('content[0] is refused: mediaType says image/jpeg');
  });
});
