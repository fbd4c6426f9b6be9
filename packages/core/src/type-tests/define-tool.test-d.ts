import { describe, expectTypeOf, it } from 'vitest';
import {
  defineTool,
  type FromSchema,
  SkeinEngine,
  type StandardSchemaV1,
  type Tool,
  ToolRegistry,
} from '../index.js';

// A Standard Schema as a library would type it (zod 4's `z.object(...)` has this shape).
declare const weatherSchema: StandardSchemaV1<
  { city: string; unit?: 'c' | 'f' },
  { city: string; unit: 'c' | 'f' }
>;

describe('FromSchema', () => {
  it('makes listed properties required and the others optional', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer' },
        metric: { type: 'boolean' },
      },
      required: ['city'],
    } as const;
    expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<{
      city: string;
      days?: number;
      metric?: boolean;
    }>();
  });

  it('reads enums, consts, arrays, nullable and type lists', () => {
    const schema = {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['c', 'f'] },
        kind: { const: 'forecast' },
        tags: { type: 'array', items: { type: 'string' } },
        points: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } },
        note: { type: 'string', nullable: true },
        limit: { type: ['number', 'null'] },
        any: { type: 'array' },
      },
      required: ['unit', 'kind', 'tags', 'points', 'note', 'limit', 'any'],
    } as const;
    expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<{
      unit: 'c' | 'f';
      kind: 'forecast';
      tags: string[];
      points: { x?: number }[];
      note: string | null;
      limit: number | null;
      any: unknown[];
    }>();
  });

  it('gives unknown where the schema is not a literal it can read', () => {
    expectTypeOf<FromSchema<{ anyOf: [] }>>().toBeUnknown();
    expectTypeOf<FromSchema<{ type: string }>>().toBeUnknown();
  });
});

describe('defineTool with a JSON Schema', () => {
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } },
      required: ['city'],
    },
    execute: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; unit?: 'c' | 'f' }>();
      return args.city;
    },
  });

  it('infers execute from an inline schema, with no `as const`', () => {
    expectTypeOf(weather).toEqualTypeOf<Tool<{ city: string; unit?: 'c' | 'f' }>>();
  });

  it('infers execute from a schema declared `as const`', () => {
    const parameters = {
      type: 'object',
      properties: { ids: { type: 'array', items: { type: 'integer' } } },
      required: ['ids'],
    } as const;
    const tool = defineTool({
      name: 'lookup',
      description: 'Look up ids',
      parameters,
      execute: ({ ids }) => ids.map((id) => id + 1),
    });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ ids: number[] }>>();
  });

  it('falls back to an object of unknown values for a schema typed only as JsonSchema', () => {
    const parameters: Readonly<Record<string, unknown>> = { type: 'object' };
    const tool = defineTool({ name: 't', description: '', parameters, execute: () => null });
    expectTypeOf(tool).toEqualTypeOf<Tool<Record<string, unknown>>>();
  });

  it('refuses an execute whose parameter disagrees with the schema', () => {
    defineTool({
      name: 'weather',
      description: '',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      // @ts-expect-error: city is a string in the schema
      execute: (args: { city: number }) => args.city,
    });
    defineTool({
      name: 'weather',
      description: '',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      // @ts-expect-error: city is optional in the schema
      execute: (args: { city: string }) => args.city,
    });
  });

  it('registers everywhere a tool is taken', () => {
    expectTypeOf(new ToolRegistry().register(weather)).toEqualTypeOf<ToolRegistry>();
    expectTypeOf(new SkeinEngine().registerTools([weather])).toEqualTypeOf<SkeinEngine>();
  });
});

describe('defineTool with a Standard Schema', () => {
  const weather = defineTool({
    name: 'weather',
    description: 'Weather for a city',
    parameters: weatherSchema,
    execute: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; unit: 'c' | 'f' }>();
      return args.unit;
    },
    needsApproval: (args) => args.city === 'Paris',
  });

  it('types execute by the schema output', () => {
    expectTypeOf(weather).toEqualTypeOf<Tool<{ city: string; unit: 'c' | 'f' }>>();
    expectTypeOf(new SkeinEngine().registerTool(weather)).toEqualTypeOf<SkeinEngine>();
  });

  it('refuses an execute whose parameter disagrees with the schema', () => {
    defineTool({
      name: 'weather',
      description: '',
      parameters: weatherSchema,
      // @ts-expect-error: unit is 'c' | 'f'
      execute: (args: { city: string; unit: number }) => args.unit,
    });
  });

  it('takes an explicit JSON Schema', () => {
    const tool = defineTool({
      name: 'weather',
      description: '',
      parameters: weatherSchema,
      jsonSchema: { type: 'object' },
      execute: ({ city }) => city,
    });
    expectTypeOf(tool.parameters).toEqualTypeOf<Readonly<Record<string, unknown>>>();
  });
});
