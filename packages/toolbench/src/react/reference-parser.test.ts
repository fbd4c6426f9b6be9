import { describe, expect, it } from 'vitest';
import { parseReAct } from './parse-react.js';

// Every expectation below was printed by CPython running StableToolBench's react_parser.
describe("parseReAct({ mode: 'reference' })", () => {
  it.each([
    {
      text: 'Thought: I called the "generate_captcha" API already.',
      expected: [
        'I called the "generate_captcha" API already',
        ': I called the "generate_captcha" API already',
        'lled the "generate_captcha" API already.',
      ],
      why: 'missing Action markers: the action starts at character 7 and loses its last character',
    },
    {
      text: 'I have searched for the top 40 songs',
      expected: [
        'earched for the top 40 song',
        'searched for the top 40 song',
        'ed for the top 40 songs',
      ],
      why: 'no marker at all: slices start at 8, 7 and 13',
    },
    {
      text: 'Thought: a\nAction: b\nAction Input: {}',
      expected: ['a', 'b', '{}'],
      why: 'the well-formed case',
    },
    {
      text: 'Action: x\nAction Input: {"a": 1}\nThought: late',
      expected: ['lat', 'x', '{"a": 1}\nThought: late'],
      why: 'end before start gives the tail; the input runs to the end of the text',
    },
    { text: '', expected: ['', '', ''], why: 'empty text' },
    {
      text: 'Thought: I need the Action: tool\nAction: real\nAction Input: {}',
      expected: ['I need the Action: tool', 'tool\nAction: real', '{}'],
      why: 'markers are not anchored to line starts',
    },
    {
      text: 'Thought: x\nAction: f\nAction Input: {"a": 1}\nFunction: {"error": ""}\nAction: g',
      expected: ['x', 'f', '{"a": 1}\nFunction: {"error": ""}\nAction: g'],
      why: 'hallucinated turns stay in the input',
    },
  ])('$why', ({ text, expected }) => {
    const result = parseReAct(text, { mode: 'reference' });
    expect([result.thought, result.action, result.actionInput]).toEqual(expected);
  });

  it('counts in code points, as Python does, when the text has astral characters', () => {
    const emoji = '😀'.repeat(16);
    expect(parseReAct(emoji, { mode: 'reference' })).toEqual({
      thought: '😀'.repeat(7),
      action: '😀'.repeat(8),
      actionInput: '😀'.repeat(3),
    });
    expect(
      parseReAct('Thought: 😀😀 ok\nAction: 😀b\nAction Input: {"e": "😀"}', { mode: 'reference' }),
    ).toEqual({
      thought: '😀😀 ok',
      action: '😀b',
      actionInput: '{"e": "😀"}',
    });
  });

  it('does not trim the action name', () => {
    expect(
      parseReAct('Thought: t\nAction:  Finish \nAction Input: {}', { mode: 'reference' }).action,
    ).toBe(' Finish ');
  });
});
