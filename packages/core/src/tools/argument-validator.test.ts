import type { JsonSchema, ToolSpec } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from './argument-validator.js';

const spec = (name: string, parameters: Record<string, unknown>): ToolSpec => ({
  name,
  description: name,
  parameters: parameters as JsonSchema,
});

const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

describe('ArgumentValidator: JSON Schema dialects', () => {
  it('validates a draft 2020-12 schema (the MCP and zod 4 default)', () => {
    const validator = new ArgumentValidator();
    const tool = spec('add', {
      $schema: DRAFT_2020,
      type: 'object',
      properties: { a: { type: 'number' }, b: { $ref: '#/$defs/n' } },
      required: ['a', 'b'],
      additionalProperties: false,
      $defs: { n: { type: 'number' } },
    });
    expect(validator.check(tool, '{"a":2,"b":40}')).toEqual({ ok: true, args: { a: 2, b: 40 } });
    const bad = validator.check(tool, '{"a":2,"b":"x"}');
    expect(bad).toMatchObject({
      ok: false,
      problems: expect.stringContaining('/b must be number'),
    });
  });

  it('applies 2020-12 semantics (prefixItems), not draft-07 ones', () => {
    const validator = new ArgumentValidator();
    const tool = spec('pair', {
      $schema: DRAFT_2020,
      type: 'object',
      properties: {
        pair: {
          type: 'array',
          prefixItems: [{ type: 'string' }, { type: 'number' }],
          items: false,
        },
      },
    });
    expect(validator.check(tool, '{"pair":["a",1]}').ok).toBe(true);
    expect(validator.check(tool, '{"pair":[1,"a"]}').ok).toBe(false);
    expect(validator.check(tool, '{"pair":["a",1,2]}').ok).toBe(false);
  });

  it('validates draft 2019-09 and explicit draft-07 schemas, with or without a trailing #', () => {
    const validator = new ArgumentValidator();
    for (const $schema of [
      'https://json-schema.org/draft/2019-09/schema',
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft-07/schema#',
      `${DRAFT_2020}#`,
    ]) {
      const tool = spec(`t-${$schema}`, {
        $schema,
        type: 'object',
        properties: { n: { type: 'integer' } },
        required: ['n'],
      });
      expect(validator.check(tool, '{"n":1}'), $schema).toEqual({ ok: true, args: { n: 1 } });
      expect(validator.check(tool, '{"n":1.5}').ok, $schema).toBe(false);
    }
  });

  it('keeps draft-07 rules for a schema without $schema', () => {
    const validator = new ArgumentValidator();
    // In draft-07 an array `items` is a tuple; in 2020-12 it would be a keyword error.
    const tool = spec('tuple', {
      type: 'object',
      properties: { t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } },
    });
    expect(validator.check(tool, '{"t":["a"]}').ok).toBe(true);
    expect(validator.check(tool, '{"t":["a","b"]}').ok).toBe(false);
  });

  it('two tools whose schemas share an $id are both checked against their own schema', () => {
    const validator = new ArgumentValidator();
    const first = spec('first', {
      $id: 'https://example.com/args.json',
      type: 'object',
      properties: { x: { type: 'number' } },
      required: ['x'],
    });
    const second = spec('second', {
      $schema: DRAFT_2020,
      $id: 'https://example.com/args.json',
      type: 'object',
      properties: { x: { type: 'string' } },
      required: ['x'],
    });
    expect(validator.check(first, '{"x":1}').ok).toBe(true);
    expect(validator.check(second, '{"x":"one"}').ok).toBe(true);
    expect(validator.check(second, '{"x":1}').ok).toBe(false);
    expect(validator.check(first, '{"x":"one"}').ok).toBe(false);
  });

  it('two tools sharing an $id on a subschema are both callable', () => {
    const validator = new ArgumentValidator();
    const make = (name: string, type: string) =>
      spec(name, {
        type: 'object',
        properties: { v: { $ref: 'https://example.com/value.json' } },
        $defs: { value: { $id: 'https://example.com/value.json', type } },
        $schema: DRAFT_2020,
      });
    const a = make('a', 'number');
    const b = make('b', 'string');
    expect(validator.check(a, '{"v":1}').ok).toBe(true);
    expect(validator.check(b, '{"v":"s"}').ok).toBe(true);
    expect(validator.check(b, '{"v":1}').ok).toBe(false);
  });

  it('an unsupported dialect reaches the model as a schema problem at call time', () => {
    const validator = new ArgumentValidator();
    const tool = spec('old', {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
    });
    expect(validator.check(tool, '{}')).toMatchObject({
      ok: false,
      problems: expect.stringContaining('draft-04'),
    });
  });
});
