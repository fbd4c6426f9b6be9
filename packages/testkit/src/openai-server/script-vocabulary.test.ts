import { ScriptedLLMClient } from '@skein/core/testing';
import { InvalidArgumentError } from '@skein/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startOpenAICompatibleServer } from './start-openai-compatible-server.js';
import { useServer } from './test-support/use-server.js';
import type { OpenAICompatibleServerOptions } from './types.js';

const start = useServer();

afterEach(() => {
  vi.restoreAllMocks();
});

interface Answer {
  choices: {
    finish_reason: string;
    message: { content: string | null; tool_calls?: unknown[] };
  }[];
  error: { code: string; message: string };
}

async function complete(base: string, body: unknown): Promise<{ status: number; body: Answer }> {
  const res = await fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

async function refusal(options: unknown): Promise<InvalidArgumentError> {
  // Deliberately unchecked: a JavaScript caller can pass anything.
  const error: unknown = await startOpenAICompatibleServer(
    options as OpenAICompatibleServerOptions,
  ).then(
    async (s) => {
      await s.close();
      return new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  if (InvalidArgumentError.isInstance(error)) return error;
  throw error;
}

describe('the script vocabulary of startOpenAICompatibleServer', () => {
  // Regression (issue 18): `content` was ignored and the server answered `"content": null`.
  it('answers with `content`, the field ScriptedLLMClient uses', async () => {
    const s = await start({ script: [{ content: 'It is sunny.' }] });
    const { body } = await complete(s.url, { messages: [{ role: 'user', content: 'Weather?' }] });
    expect(body.choices[0]!.message.content).toBe('It is sunny.');
  });

  it('refuses an unknown turn field at start, naming it and listing the accepted ones', async () => {
    const error = await refusal({ script: [{ content: 'a' }, { contnet: 'x' }] });
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe('script[1].contnet');
    expect(error.details.accepted).toEqual(
      expect.arrayContaining(['content', 'toolCalls', 'usage', 'finishReason']),
    );
    expect(error.message).toContain('script[1].contnet');
    expect(error.message).toContain('content, reasoning, toolCalls');
  });

  it.each([
    [{ script: [{ content: 3 }] }, 'script[0].content'],
    [
      { script: [{ toolCalls: [{ name: 't', arguments: 5 }] }] },
      'script[0].toolCalls[0].arguments',
    ],
    [{ script: [{ toolCalls: [{ name: 't', args: '{}' }] }] }, 'script[0].toolCalls[0].args'],
    [{ script: [{ usage: { promptTokens: 1 } }] }, 'script[0].usage.completionTokens'],
    [{ script: [{ content: 'a', quirks: { noIdx: true } }] }, 'script[0].quirks.noIdx'],
    [{ script: [], quirks: { wholeArguments: 'yes' } }, 'quirks.wholeArguments'],
    [
      { script: [], quirks: { failBeforeSuccess: { status: 429 } } },
      'quirks.failBeforeSuccess.times',
    ],
    [{ script: [], quirk: {} }, 'quirk'],
    [{ script: 'nope' }, 'script'],
    [{ script: [{ fixture: 'a.json', content: 'x' }] }, 'script[0].content'],
  ])('refuses %j at %s', async (options, path) => {
    expect((await refusal(options)).argument).toBe(path);
  });

  it('takes arguments as an object or a JSON string, with the same ids as ScriptedLLMClient', async () => {
    const s = await start({
      script: [
        {
          toolCalls: [
            { name: 'a', arguments: { city: 'Oslo' } },
            { id: 'mine', name: 'b', arguments: '{"x":1}' },
          ],
        },
      ],
    });
    const { body } = await complete(s.url, { messages: [{ role: 'user', content: 'hi' }] });
    const scripted = await new ScriptedLLMClient([
      { toolCalls: [{ name: 'a', arguments: { city: 'Oslo' } }] },
    ]).generate({
      threadId: 't',
      nodeId: 'n',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
    });
    const id = scripted.message.toolCalls![0]!.id;
    expect(id).toMatch(/^call_[0-9a-f]{12}_0$/);
    expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    expect(body.choices[0]!.message.tool_calls).toEqual([
      { id, type: 'function', function: { name: 'a', arguments: '{"city":"Oslo"}' } },
      { id: 'mine', type: 'function', function: { name: 'b', arguments: '{"x":1}' } },
    ]);
  });

  it('makes the ids ScriptedLLMClient makes for a user message with an image, and others for another image', async () => {
    const png = (last: number) =>
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, last]);
    const script = [{ toolCalls: [{ name: 'a' }] }, { toolCalls: [{ name: 'a' }] }];
    const s = await start({ script });
    const wireIds: string[] = [];
    const scriptedIds: string[] = [];
    const scripted = new ScriptedLLMClient(script);
    for (const bytes of [png(1), png(2)]) {
      const text = { type: 'text', text: 'What is this?' } as const;
      const { body } = await complete(s.url, {
        messages: [
          {
            role: 'user',
            content: [
              text,
              {
                type: 'image_url',
                image_url: {
                  url: `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`,
                },
              },
            ],
          },
        ],
      });
      wireIds.push((body.choices[0]!.message.tool_calls![0] as { id: string }).id);
      const answer = await scripted.generate({
        threadId: 't',
        nodeId: 'n',
        messages: [
          { role: 'user', content: [text, { type: 'image', mediaType: 'image/png', data: bytes }] },
        ],
        tools: [],
      });
      scriptedIds.push(answer.message.toolCalls![0]!.id);
    }
    expect(wireIds).toEqual(scriptedIds);
    expect(wireIds[0]).not.toBe(wireIds[1]);
  });

  it('never repeats a default id for conversations of the same length (after a clear)', async () => {
    const s = await start({
      script: [{ toolCalls: [{ name: 'a' }] }, { toolCalls: [{ name: 'a' }] }],
    });
    const ids: string[] = [];
    for (const content of ['before the clear', 'after the clear']) {
      const { body } = await complete(s.url, { messages: [{ role: 'user', content }] });
      ids.push((body.choices[0]!.message.tool_calls![0] as { id: string }).id);
    }
    expect(new Set(ids).size).toBe(2);
  });

  it('refuses the old `text` field, naming `content`', async () => {
    await expect(
      startOpenAICompatibleServer({ script: [{ text: 'old' } as never] }),
    ).rejects.toThrow(/script\[0\]\.text: is not a known field \(accepted: content/);
  });

  it('names the turn and the last message when the script runs out', async () => {
    const s = await start({ script: [{ content: 'one' }] });
    await complete(s.url, { messages: [{ role: 'user', content: 'first' }] });
    const long = `Why? ${'x'.repeat(300)}`;
    const { status, body } = await complete(s.url, {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'tool', content: long },
      ],
    });
    expect(status).toBe(400);
    expect(body.error.code).toBe('script_exhausted');
    expect(body.error.message).toContain('turn 2');
    expect(body.error.message).toContain(`tool: "${long.slice(0, 200)}"`);
    expect(body.error.message).not.toContain(long.slice(0, 201));
  });
});
