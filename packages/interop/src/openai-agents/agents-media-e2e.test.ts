// An Agents SDK tool's image reaches the model as a part of the tool message in a Skein thread.
import { tool } from '@openai/agents';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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
    const llm = new ScriptedLLMClient([
      { toolCalls: [{ name: 'chart', arguments: {} }] },
      { content: 'Seen.' },
    ]);
    const engine = new SkeinEngine({ llm });
    engine.registerTool(fromFunctionTool(chart));
    engine.registerWorkflow(
      new WorkflowBuilder('w', '1')
        .initialTools(['chart'])
        .start()
        .llm('agent')
        .end('end')
        .chain('start', 'agent', 'end')
        .build(),
    );
    const thread = engine.createThread('w', { input: 'chart please' });
    expect((await engine.execute(thread)).status).toBe('COMPLETED');
    const message = thread.conversation.getAllMessages().find((m) => m.role === 'tool')!;
    expect(message.metadata).toMatchObject({ isError: false });
    expect(message.content).toEqual([
      { type: 'text', text: 'Sales:' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ]);
  });
});
