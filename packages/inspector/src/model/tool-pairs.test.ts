import { describe, expect, it } from 'vitest';
import { pairToolCalls, prettyArguments } from './tool-pairs.js';

describe('pairToolCalls', () => {
  it('pairs by id, leaves unanswered calls open and keeps broken arguments as sent', () => {
    const pairs = pairToolCalls([
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'x', arguments: '{"n":1}' },
          { id: 'b', name: 'y', arguments: '{oops' },
          { id: 'c', name: 'z', arguments: '{}', error: 'arguments are not JSON' },
        ],
      },
      { role: 'tool', content: 'late', toolCallId: 'b', metadata: { isError: true } },
      { role: 'tool', content: 'stray', toolCallId: 'nope' },
    ]);
    expect(pairs).toEqual([
      { callId: 'a', name: 'x', arguments: '{\n  "n": 1\n}', callPosition: 0, isError: false },
      {
        callId: 'b',
        name: 'y',
        arguments: '{oops',
        callPosition: 0,
        resultPosition: 1,
        result: 'late',
        isError: true,
      },
      {
        callId: 'c',
        name: 'z',
        arguments: '{}',
        callPosition: 0,
        isError: true,
        result: 'arguments are not JSON',
      },
    ]);
  });

  it('pretty-prints only JSON', () => {
    expect(prettyArguments('[1]')).toBe('[\n  1\n]');
    expect(prettyArguments('<b>')).toBe('<b>');
  });
});
