import { describe, expect, it } from 'vitest';
import { turnToChunks } from './turn-to-chunks.js';
import type { OpenAIServerQuirks, ScriptedTurn } from './types.js';

const meta = { id: 'chatcmpl-x', model: 'm', created: 1, turn: 0 };
const turn: ScriptedTurn = {
  content: 'Hi there',
  toolCalls: [
    { id: 'call_a', name: 'alpha', arguments: '{"q":"abcdef"}' },
    { name: 'beta', arguments: '{}' },
  ],
  usage: { promptTokens: 3, completionTokens: 4 },
};

type Chunk = {
  choices: {
    delta: { content?: string; tool_calls?: Record<string, unknown>[] };
    finish_reason: string | null;
  }[];
  usage?: unknown;
};

function fragments(quirks: OpenAIServerQuirks, t: ScriptedTurn = turn) {
  return (turnToChunks(t, quirks, meta) as Chunk[]).flatMap(
    (c) => c.choices[0]?.delta.tool_calls ?? [],
  );
}

describe('turnToChunks', () => {
  it('streams the OpenAI shape by default', () => {
    const chunks = turnToChunks(turn, {}, meta) as Chunk[];
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.slice(1, 3).map((c) => c.choices[0]!.delta.content)).toEqual(['Hi t', 'here']);
    const f = fragments({});
    expect(f[0]).toEqual({
      index: 0,
      id: 'call_a',
      type: 'function',
      function: { name: 'alpha', arguments: '{"q"' },
    });
    expect(f[1]).toEqual({ index: 0, function: { arguments: ':"ab' } });
    expect(f.find((x) => x.index === 1)).toMatchObject({
      id: 'call_tk0_1',
      function: { name: 'beta' },
    });
    const last = chunks.at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe('tool_calls');
    expect(last.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });

  it('null id on the first chunk, the id on the next', () => {
    const f = fragments({ nullIdOnFirstChunk: true });
    expect(f[0]!.id).toBeNull();
    expect(f[1]!.id).toBe('call_a');
    expect(
      f
        .slice(2)
        .filter((x) => x.index === 0)
        .every((x) => !('id' in x)),
    ).toBe(true);
  });

  it('id only on a later chunk, and never when the script says id: null', () => {
    const f = fragments({ idOnLaterChunk: true });
    const first = f.filter((x) => x.index === 0);
    expect('id' in first[0]!).toBe(false);
    expect(first.at(-1)!.id).toBe('call_a');
    const none = fragments({}, { toolCalls: [{ id: null, name: 'x', arguments: '{"a":1}' }] });
    expect(none[0]!.id).toBeNull();
    expect(none.slice(1).some((x) => 'id' in x)).toBe(false);
  });

  it('repeats id, type and name on every fragment', () => {
    for (const f of fragments({ repeatIdAndName: true })) {
      expect(f).toMatchObject({ type: 'function', function: { name: expect.any(String) } });
      expect(f.id).toEqual(expect.any(String));
    }
  });

  it('drops the index, or starts it at 1', () => {
    expect(fragments({ noIndex: true }).some((x) => 'index' in x)).toBe(false);
    expect([...new Set(fragments({ indexBase: 1 }).map((x) => x.index))]).toEqual([1, 2]);
  });

  it('sends whole arguments in one fragment', () => {
    expect(fragments({ wholeArguments: true })).toEqual([
      {
        index: 0,
        id: 'call_a',
        type: 'function',
        function: { name: 'alpha', arguments: '{"q":"abcdef"}' },
      },
      { index: 1, id: 'call_tk0_1', type: 'function', function: { name: 'beta', arguments: '{}' } },
    ]);
  });

  it('puts usage in a final choices: [] chunk, and says stop with calls', () => {
    const chunks = turnToChunks(
      turn,
      { usageOnlyFinalChunk: true, stopWithToolCalls: true },
      meta,
    ) as Chunk[];
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 7 } });
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-2)!.usage).toBeUndefined();
  });
});
