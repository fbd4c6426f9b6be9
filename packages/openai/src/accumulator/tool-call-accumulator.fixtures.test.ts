import { describe, expect, it } from 'vitest';
import { loadStreamFixtures } from '../test-support/fixtures.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

const fixtures = loadStreamFixtures();

describe('ToolCallAccumulator on the recorded provider streams', () => {
  it('finds all nine fixture files', () => {
    expect(fixtures.map((f) => f.file)).toHaveLength(9);
  });

  it.each(fixtures.map((f) => [f.file, f] as const))(
    '%s assembles to expected_result',
    (_, fixture) => {
      const accumulator = new ToolCallAccumulator();
      for (const chunk of fixture.chunks) accumulator.push(chunk);
      const result = accumulator.finish();
      expect(
        result.toolCalls.map((c) => ({
          id: c.id,
          type: c.type,
          function: { name: c.name, arguments: c.arguments },
        })),
      ).toEqual(fixture.expected.tool_calls);
      expect(result.toolCalls.every((c) => c.error === undefined)).toBe(true);
      expect(result.finishReason).toBe(fixture.expected.finish_reason);
      expect(result.usage !== undefined).toBe(fixture.expected.usage_present);
      expect(result.warnings).toEqual([]);
      expect(result.chunks).toBe(fixture.chunks.length);
    },
  );

  it('keeps reasoning apart from text (deepseek-reasoner)', () => {
    const fixture = fixtures.find((f) => f.file.startsWith('deepseek-reasoner'))!;
    const accumulator = new ToolCallAccumulator();
    for (const chunk of fixture.chunks) accumulator.push(chunk);
    const result = accumulator.finish();
    expect(result.reasoning.length).toBeGreaterThan(20);
    expect(result.text).toBe('');
    expect(result.usage).toEqual({ promptTokens: 339, completionTokens: 83, totalTokens: 422 });
  });

  it('reads Groq gpt-oss `reasoning` deltas as reasoning', () => {
    const fixture = fixtures.find((f) => f.file.startsWith('groq-gptoss'))!;
    const accumulator = new ToolCallAccumulator();
    for (const chunk of fixture.chunks) accumulator.push(chunk);
    expect(accumulator.finish().reasoning).toContain('We need to call the function');
  });
});
