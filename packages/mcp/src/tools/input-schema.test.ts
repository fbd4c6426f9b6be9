import { describe, expect, it } from 'vitest';
import { toolInputSchema } from './input-schema.js';

describe('toolInputSchema', () => {
  it('a workflow without variables takes an optional message (and any variables)', () => {
    expect(toolInputSchema('w')).toEqual({
      takesMessage: true,
      schema: {
        type: 'object',
        properties: { message: { type: 'string', description: expect.any(String) } },
      },
    });
  });

  it('a variable named message stays the workflow’s: no first-message argument then', () => {
    const input = toolInputSchema('w', {
      schema: {
        type: 'object',
        properties: { message: { type: 'number' } },
        required: ['message'],
      },
    });
    expect(input).toEqual({
      takesMessage: false,
      schema: {
        type: 'object',
        properties: { message: { type: 'number' } },
        required: ['message'],
      },
    });
  });

  it('refuses a variable schema that is not an object schema, naming the workflow', () => {
    expect(() => toolInputSchema('w', { schema: { type: 'array' } })).toThrow(
      /Workflow "w" cannot be an MCP tool: its variable schema has type "array"/,
    );
  });
});
