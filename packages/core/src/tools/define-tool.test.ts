import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.js';
import { SkeinEmitter } from '../events/emitter.js';
import { errorWith } from '../test-support/error-with.js';
import { ArgumentValidator } from './argument-validator.js';
import { defineTool } from './define-tool.js';
import type { StandardSchemaIssue, StandardSchemaV1 } from './standard-schema.js';
import type { Tool } from './tool.js';
import { ToolRegistry } from './tool-registry.js';
import { ToolRunner } from './tool-runner.js';

// A minimal Standard Schema library: trims the city and defaults the unit, as zod's output would.
function weatherSchema(
  withJsonSchema: boolean,
): StandardSchemaV1<{ city: string; unit?: 'c' | 'f' }, { city: string; unit: 'c' | 'f' }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: async (value) => {
        const v = value as { city?: unknown; unit?: unknown };
        const issues: StandardSchemaIssue[] = [];
        if (typeof v.city !== 'string') issues.push({ message: 'expected string', path: ['city'] });
        if (v.unit !== undefined && v.unit !== 'c' && v.unit !== 'f')
          issues.push({ message: "expected 'c' or 'f'", path: [{ key: 'unit' }] });
        if (issues.length > 0) return { issues };
        return { value: { city: (v.city as string).trim(), unit: (v.unit as 'c' | 'f') ?? 'c' } };
      },
      ...(withJsonSchema
        ? {
            jsonSchema: {
              input: ({ target }) => ({
                $schema:
                  target === 'draft-2020-12' ? 'https://json-schema.org/draft/2020-12/schema' : '',
                type: 'object',
                properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } },
                required: ['city'],
              }),
            },
          }
        : {}),
    },
  };
}

const runner = () =>
  new ToolRunner({ validator: new ArgumentValidator(), emitter: new SkeinEmitter() });

const run = (tool: Tool<never>, args: unknown) =>
  runner().run(
    { id: 'c1', name: tool.name, arguments: JSON.stringify(args) },
    {
      threadId: 't',
      nodeId: 'n',
      signal: new AbortController().signal,
      variables: {},
      tools: new Map([[tool.name, tool as Tool]]),
    },
  );

describe('defineTool with a JSON Schema', () => {
  it('returns the definition itself, which registers and runs like any tool', async () => {
    const definition = {
      name: 'add',
      description: 'Adds two numbers',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      execute: ({ a, b }: { a: number; b: number }) => a + b,
    } as const;
    const tool = defineTool(definition);
    expect(tool).toBe(definition);
    expect(new ToolRegistry().register(tool).has('add')).toBe(true);
    expect((await run(tool, { a: 1, b: 2 })).message.content).toBe('3');
    expect((await run(tool, { a: 1 })).errorCode).toBe('TOOL_ARGUMENTS_INVALID');
  });
});

describe('defineTool with a Standard Schema', () => {
  it("shows the model the schema's JSON Schema and runs execute on its output", async () => {
    const tool = defineTool({
      name: 'weather',
      description: 'Weather for a city',
      parameters: weatherSchema(true),
      execute: ({ city, unit }) => `${city} in ${unit}`,
    });
    expect(tool.parameters).toMatchObject({ type: 'object', required: ['city'] });
    expect(tool.parameters.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(new ToolRegistry().register(tool).get('weather')).toBe(tool);
    expect((await run(tool, { city: ' Paris ' })).message.content).toBe('Paris in c');
  });

  it('answers arguments the schema refuses with TOOL_ARGUMENTS_INVALID, naming each path', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'weather',
      description: '',
      parameters: weatherSchema(true),
      validateArguments: false,
      execute: () => {
        ran = true;
      },
    });
    const result = await run(tool, { city: 1, unit: 'k' });
    expect(result.isError).toBe(true);
    expect(result.message.content).toContain('TOOL_ARGUMENTS_INVALID');
    expect(result.message.content).toContain("city: expected string; unit: expected 'c' or 'f'");
    expect(ran).toBe(false);
  });

  it('takes an explicit jsonSchema, and requires one when the library cannot give it', () => {
    const jsonSchema = { type: 'object', properties: { city: { type: 'string' } } };
    const tool = defineTool({
      name: 'weather',
      description: '',
      parameters: weatherSchema(false),
      jsonSchema,
      execute: () => null,
    });
    expect(tool.parameters).toBe(jsonSchema);
    expect(() =>
      defineTool({
        name: 'w',
        description: '',
        parameters: weatherSchema(false),
        execute: () => null,
      }),
    ).toThrow(errorWith(ToolError, 'INVALID_TOOL'));
  });

  it('asks needsApproval with the validated arguments, and never for refused ones', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'weather',
      description: '',
      parameters: weatherSchema(true),
      execute: () => null,
      needsApproval: (args) => {
        seen.push(args);
        return true;
      },
    });
    const context = { threadId: 't', variables: {} };
    const check = tool.needsApproval as (args: unknown, c: typeof context) => Promise<boolean>;
    expect(await check({ city: ' Oslo ' }, context)).toBe(true);
    expect(await check({ city: 3 }, context)).toBe(false);
    expect(seen).toEqual([{ city: 'Oslo', unit: 'c' }]);
    const always = defineTool({
      name: 'w',
      description: '',
      parameters: weatherSchema(true),
      execute: () => null,
      needsApproval: true,
    });
    expect(always.needsApproval).toBe(true);
  });
});
