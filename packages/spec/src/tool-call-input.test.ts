import { describe, expect, it } from 'vitest';
import { toolCallInput } from './tool-call-input.js';

describe('toolCallInput', () => {
  it('parses a JSON object, and gives {} for anything else', () => {
    expect(toolCallInput('{"city":"Oslo","n":2}')).toEqual({ city: 'Oslo', n: 2 });
    for (const text of ['', 'not json', '[1,2]', '"text"', '3', 'null'])
      expect(toolCallInput(text)).toEqual({});
  });
});
