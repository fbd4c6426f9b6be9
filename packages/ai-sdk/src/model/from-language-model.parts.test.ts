import type { LanguageModelV2, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { InvalidArgumentError, type LLMMessage, type LLMRequest } from '@skein/spec';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { AiSdkPartError } from '../errors/ai-sdk-part-error.js';
import { base64Of, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import { finishPart, streamOf, textParts, usageV3 } from '../test-support/stream-parts.js';
import { fromLanguageModel } from './from-language-model.js';

const PNG = pngBytes(1, 2, 3);

function request(messages: LLMMessage[]): LLMRequest {
  return { threadId: 't', nodeId: 'n', messages, tools: [] };
}

function recordingModel(
  answer = streamOf([...textParts('ok'), finishPart('stop', usageV3(1, 1))]),
) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      calls.push(options);
      return answer;
    },
  });
  return { model, calls };
}

const toolTurn: LLMMessage[] = [
  { role: 'user', content: 'draw it' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'draw', arguments: '{}' }] },
  {
    role: 'tool',
    toolCallId: 'c1',
    name: 'draw',
    content: [
      { type: 'text', text: 'drawn:' },
      { type: 'image', mediaType: 'image/png', data: base64Of(PNG) },
    ],
  },
];

describe('fromLanguageModel: content in parts', () => {
  it('keeps string content exactly the prompt it was', async () => {
    const { model, calls } = recordingModel();
    await fromLanguageModel(model).generate(
      request([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 't', arguments: '' }] },
        { role: 'tool', toolCallId: 'c1', content: '42' },
        { role: 'tool', toolCallId: 'c1', content: 'boom', metadata: { isError: true } },
      ]),
    );
    expect(calls[0]!.prompt).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 't',
            output: { type: 'text', value: '42' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 't',
            output: { type: 'error-text', value: 'boom' },
          },
        ],
      },
    ]);
  });

  it('sends user media as file parts, and assistant files back as file parts', async () => {
    const { model, calls } = recordingModel();
    await fromLanguageModel(model).generate(
      request([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'read this' },
            {
              type: 'file',
              mediaType: 'application/pdf',
              filename: 'a.pdf',
              data: base64Of(PDF_BYTES),
            },
            { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/b.jpg' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'a drawing:' },
            { type: 'image', mediaType: 'image/png', data: base64Of(PNG) },
          ],
        },
      ]),
    );
    const [user, assistant] = calls[0]!.prompt;
    expect(user).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'read this' },
        { type: 'file', mediaType: 'application/pdf', filename: 'a.pdf', data: PDF_BYTES },
        { type: 'file', mediaType: 'image/jpeg', data: new URL('https://example.com/b.jpg') },
      ],
    });
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'a drawing:' },
        { type: 'file', mediaType: 'image/png', data: PNG },
      ],
    });
  });

  it('sends a v2 model tool-result media as v2 media items', async () => {
    const calls: unknown[] = [];
    const v2: LanguageModelV2 = {
      specificationVersion: 'v2',
      provider: 'hand',
      modelId: 'v2-model',
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error('not used')),
      doStream: async (options) => {
        calls.push(options);
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: 'stream-start', warnings: [] },
              {
                type: 'finish',
                finishReason: 'stop',
                usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
              },
            ],
          }),
        };
      },
    };
    await fromLanguageModel(v2).generate(request(toolTurn));
    const prompt = (calls[0] as { prompt: unknown[] }).prompt;
    expect(prompt[2]).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'drawn:' },
              { type: 'media', data: base64Of(PNG), mediaType: 'image/png' },
            ],
          },
        },
      ],
    });
  });

  it('refuses media in a system message, naming the part, before calling the model', async () => {
    const { model, calls } = recordingModel();
    const error = await fromLanguageModel(model)
      .generate(
        request([
          {
            role: 'system',
            content: [
              { type: 'text', text: 'style:' },
              { type: 'image', mediaType: 'image/png', data: base64Of(PNG) },
            ],
          },
        ]),
      )
      .catch((e: unknown) => e);
    expect(AiSdkPartError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'PART_UNSUPPORTED',
      part: 'messages[0].content[1]',
      partType: 'image',
    });
    expect(calls).toHaveLength(0);
  });

  it('refuses a ref it cannot read, naming the part, before calling the model', async () => {
    const { model, calls } = recordingModel();
    const error = await fromLanguageModel(model)
      .generate(
        request([
          {
            role: 'user',
            content: [
              {
                type: 'image',
                mediaType: 'image/png',
                ref: { digest: `sha256:${'0'.repeat(64)}`, size: 3 },
              },
            ],
          },
        ]),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REF_UNRESOLVED', part: 'messages[0].content[0]' });
    expect(calls).toHaveLength(0);
  });

  it('answers with the files the model generated, in place among its text', async () => {
    const { model } = recordingModel(
      streamOf([
        ...textParts('here:'),
        { type: 'file', mediaType: 'image/png', data: PNG },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'done' },
        { type: 'text-end', id: 't1' },
        finishPart('stop', usageV3(1, 1)),
      ]),
    );
    const deltas: string[] = [];
    const response = await fromLanguageModel(model).generate(
      request([{ role: 'user', content: 'draw' }]),
      {
        onEvent: (e) => {
          if (e.type === 'text-delta') deltas.push(e.delta);
        },
      },
    );
    expect(response.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'here:' },
        { type: 'image', mediaType: 'image/png', data: base64Of(PNG) },
        { type: 'text', text: 'done' },
      ],
    });
    expect(deltas.join('')).toBe('here:done');
  });

  it('refuses a generated file that is not what it says, naming it', async () => {
    const { model } = recordingModel(
      streamOf([
        { type: 'file', mediaType: 'image/png', data: PDF_BYTES },
        finishPart('stop', usageV3(1, 1)),
      ]),
    );
    const error = await fromLanguageModel(model)
      .generate(request([{ role: 'user', content: 'draw' }]))
      .catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ details: { kind: 'signature' } });
  });
});
