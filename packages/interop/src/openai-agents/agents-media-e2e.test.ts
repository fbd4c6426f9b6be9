// An Agents SDK tool's image reaches the model as a part of the tool message in a Skein thread.
import { tool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chartToolMessage } from '../test-support/chart-thread.js';
import { fromFunctionTool } from './from-function-tool.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('an Agents SDK image output, in a Skein thread', () => {
  it('is an image part of the tool message, bytes stored as base64', async () => {
    const chart = tool({
      name: 'chart',
      description: 'Draws a chart',
      parameters: z.object({}),
      execute: async () => [
        { type: 'text' as const, text: 'Sales:' },
        { type: 'image' as const, image: { data: new Uint8Array(Buffer.from(PNG, 'base64')) } },
      ],
    });
    const message = await chartToolMessage([fromFunctionTool(chart)]);
    expect(message.metadata).toMatchObject({ isError: false });
    expect(message.content).toEqual([
      { type: 'text', text: 'Sales:' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ]);
  });
});
