import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine, type Tool } from '@skein/core';
import { toolOutput } from '@skein/spec';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromLanguageModel } from './model/from-language-model.js';
import { base64Of, pngBytes } from './test-support/media-bytes.js';
import {
  finishPart,
  streamOf,
  textParts,
  toolCallParts,
  usageV3,
} from './test-support/stream-parts.js';

// A vision workflow run by the real engine over fromLanguageModel: the user sends a photo, the
// model asks for a chart, the tool returns one as an image part, and the model answers.

const PHOTO = pngBytes(1, 2, 3);
const CHART = pngBytes(9, 8, 7);

describe('a vision workflow through fromLanguageModel and MockLanguageModelV3', () => {
  it('sends the user photo as a file part and the tool chart as tool-result content', async () => {
    const prompts: LanguageModelV3CallOptions['prompt'][] = [];
    const answers = [
      streamOf([
        ...textParts('Let me chart it.'),
        ...toolCallParts('call_1', 'chart', '{"of":"colours"}'),
        finishPart('tool-calls', usageV3(10, 5)),
      ]),
      streamOf([
        ...textParts('Mostly red, as the chart shows.'),
        finishPart('stop', usageV3(20, 7)),
      ]),
    ];
    const model = new MockLanguageModelV3({
      doStream: async (options) => {
        prompts.push(options.prompt);
        return answers[prompts.length - 1]!;
      },
    });
    const chart: Tool<{ of: string }> = {
      name: 'chart',
      description: 'Draws a chart',
      parameters: { type: 'object', properties: { of: { type: 'string' } }, required: ['of'] },
      execute: () =>
        toolOutput({
          content: [
            { type: 'text', text: 'colour histogram:' },
            { type: 'image', mediaType: 'image/png', data: CHART },
          ],
        }),
    };
    const engine = new SkeinEngine({
      llm: fromLanguageModel(model),
      store: new InMemoryCheckpointStore(),
    });
    engine.registerTool(chart);
    engine.registerWorkflow(chatWorkflow({ tools: ['chart'] }));

    const { result } = await engine.send('t1', {
      content: [
        { type: 'text', text: 'What colours are in this photo?' },
        { type: 'image', mediaType: 'image/png', data: PHOTO },
      ],
    });
    expect(result.error?.message).toBeUndefined();
    expect(result).toMatchObject({
      status: 'COMPLETED',
      output: 'Mostly red, as the chart shows.',
    });
    expect(prompts).toHaveLength(2);

    const userOf = (prompt: LanguageModelV3CallOptions['prompt']) =>
      prompt.find((m) => m.role === 'user')!;
    for (const prompt of prompts) {
      const user = userOf(prompt).content;
      expect(user).toHaveLength(2);
      expect(user[0]).toEqual({ type: 'text', text: 'What colours are in this photo?' });
      expect(user[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
      // The store keeps base64; the model gets the bytes back, byte for byte.
      expect(Array.from((user[1] as { data: Uint8Array }).data)).toEqual(Array.from(PHOTO));
    }

    const second = prompts[1]!;
    const [assistant, tool] = second.slice(-2);
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me chart it.' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'chart', input: { of: 'colours' } },
      ],
    });
    expect(tool).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'chart',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'colour histogram:' },
              { type: 'image-data', data: base64Of(CHART), mediaType: 'image/png' },
            ],
          },
        },
      ],
    });
  });
});
