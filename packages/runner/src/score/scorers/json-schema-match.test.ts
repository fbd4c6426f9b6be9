import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { scorerInput } from '../../test-support/scorer-input.js';
import { jsonSchemaMatch } from './json-schema-match.js';

const schema = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' } },
        required: ['name', 'price'],
      },
    },
  },
  required: ['items'],
};

describe('jsonSchemaMatch', () => {
  const scorer = jsonSchemaMatch({ schema });

  it('scores an output that matches 1, parsing a string output first', () => {
    expect(scorer.score(scorerInput({ output: { items: [{ name: 'tea', price: 2 }] } }))).toEqual({
      score: 1,
      reason: 'matches the schema',
    });
    const text = JSON.stringify({ items: [] });
    expect(scorer.score(scorerInput({ output: text }))).toMatchObject({ score: 1 });
  });

  it('names the first failing path, and lists every problem in details', () => {
    const value = scorer.score(
      scorerInput({ output: { items: [{ name: 'tea', price: 'two' }, { price: 1 }] } }),
    ) as { score: number; reason: string; details: { errors: string[] } };
    expect(value.score).toBe(0);
    expect(value.reason).toBe('/items/0/price must be number');
    expect(value.details.errors).toHaveLength(2);
    expect(value.details.errors[1]).toContain('/items/1');
  });

  it('scores text that is not JSON, and a missing output, 0', () => {
    expect(scorer.score(scorerInput({ output: 'sure! {"items": []}' }))).toMatchObject({
      score: 0,
      reason: expect.stringContaining('the output is not JSON'),
    });
    expect(scorer.score(scorerInput({ status: 'FAILED' }))).toMatchObject({ score: 0 });
  });

  it('follows the dialect the schema declares', () => {
    const tuple = jsonSchemaMatch({
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'array',
        prefixItems: [{ type: 'number' }, { type: 'string' }],
        items: false,
      },
    });
    expect(tuple.score(scorerInput({ output: [1, 'a'] }))).toMatchObject({ score: 1 });
    expect(tuple.score(scorerInput({ output: [1, 'a', 3] }))).toMatchObject({ score: 0 });
  });

  it('refuses a schema that does not compile when it is made, not item by item', () => {
    expect(() => jsonSchemaMatch({ schema: { type: 'no-such-type' } })).toThrow(
      InvalidArgumentError,
    );
  });
});
