import { tool } from '@openai/agents';
import { type Tool, ToolError, ToolRegistry } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolConversionError } from '../errors/tool-conversion-error.js';
import { fromFunctionTool } from '../openai-agents/from-function-tool.js';
import { toOpenAITools } from './to-openai-tools.js';

const search: Tool = {
  name: 'search',
  description: 'Searches the web',
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  execute: () => 'ok',
};

describe('toOpenAITools', () => {
  it('builds the Chat Completions tools array, keeping strict only where it is set', () => {
    const strictTool = fromFunctionTool(
      tool({
        name: 'sum',
        description: 'Sums',
        parameters: z.object({ a: z.number() }),
        execute: () => '',
      }),
    );
    expect(toOpenAITools([search, strictTool])).toEqual([
      {
        type: 'function',
        function: {
          name: 'search',
          description: 'Searches the web',
          parameters: search.parameters,
        },
      },
      {
        type: 'function',
        function: {
          name: 'sum',
          description: 'Sums',
          parameters: strictTool.parameters,
          strict: true,
        },
      },
    ]);
  });

  it('works on a registry listing and copies schemas', () => {
    const registry = new ToolRegistry().register(search);
    const [definition] = toOpenAITools(registry.list());
    const copied = definition?.function.parameters as { properties: Record<string, unknown> };
    copied.properties.extra = {};
    expect(search.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
  });

  it('refuses duplicate names and malformed entries', () => {
    expect(() => toOpenAITools([search, { ...search, source: 'mcp:web' }])).toThrowError(
      expect.objectContaining({
        constructor: ToolError,
        code: 'TOOL_CONFLICT',
        conflicts: [{ name: 'search', sources: ['local', 'mcp:web'] }],
      }),
    );
    expect(() => toOpenAITools([{ ...search, parameters: [] as never }])).toThrowError(
      ToolConversionError,
    );
    expect(() => toOpenAITools([{ ...search, name: '' }])).toThrowError(/#0/);
    expect(toOpenAITools([])).toEqual([]);
  });
});
