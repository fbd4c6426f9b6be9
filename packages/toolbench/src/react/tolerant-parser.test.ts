import { describe, expect, it } from 'vitest';
import { ToolBenchError } from '../errors/toolbench-error.js';
import { parseReAct } from './parse-react.js';

function step(text: string) {
  return parseReAct(text);
}

function failure(text: string): ToolBenchError<'REACT_PARSE_ERROR'> {
  try {
    parseReAct(text);
  } catch (error) {
    if (ToolBenchError.isInstance(error) && error.code === 'REACT_PARSE_ERROR')
      return error as ToolBenchError<'REACT_PARSE_ERROR'>;
    throw error;
  }
  throw new Error('expected a REACT_PARSE_ERROR');
}

const codes = (text: string) => step(text).warnings.map((w) => w.code);

// The cases of FORMAT.md §9, one test each.
describe('parseReAct (tolerant): the tricky cases of FORMAT.md §9', () => {
  it('multi-line (pretty-printed) JSON', () => {
    const s = step(
      'Thought: look it up\nAction: search_for_x\nAction Input: {\n  "q": "birthday",\n  "n": 3\n}',
    );
    expect(s).toMatchObject({
      thought: 'look it up',
      action: 'search_for_x',
      actionInput: { q: 'birthday', n: 3 },
      parsedBy: 'strict',
      complete: true,
    });
    expect(s.warnings).toEqual([]);
  });

  it('braces inside JSON strings do not end the object', () => {
    const text =
      'Thought: t\nAction: run\nAction Input: {"json": "{\\"command\\": \\"}}\\"}", "b": "}{"}\nmore';
    const s = step(text);
    expect(s.actionInput).toEqual({ json: '{"command": "}}"}', b: '}{' });
    expect(s.rawActionInput).toBe('{"json": "{\\"command\\": \\"}}\\"}", "b": "}{"}');
    expect(s.end).toBe(text.indexOf('\nmore'));
  });

  it('text after the JSON object is ignored (with a warning)', () => {
    const s = step('Thought: t\nAction: f\nAction Input: {"a": 1} I hope this works!');
    expect(s).toMatchObject({
      actionInput: { a: 1 },
      parsedBy: 'balanced',
      rawActionInput: '{"a": 1}',
    });
    expect(s.warnings.map((w) => w.code)).toEqual(['trailing-text']);
  });

  it('several actions in one reply: the first is taken, hallucinated Function/Observation turns ignored', () => {
    const text = [
      'Thought: first',
      'Action: f',
      'Action Input: {"a": 1}',
      'Function: {"error": "", "response": "made up"}',
      'Observation: also made up',
      'Thought: second',
      'Action: g',
      'Action Input: {"b": 2}',
    ].join('\n');
    expect(step(text)).toMatchObject({
      thought: 'first',
      action: 'f',
      actionInput: { a: 1 },
      end: text.indexOf('\nFunction'),
    });
  });

  it('an empty Action Input means no arguments', () => {
    expect(step('Thought: t\nAction: list_all_for_tool\nAction Input: ')).toMatchObject({
      actionInput: {},
      parsedBy: 'empty',
      complete: false,
    });
    expect(codes('Thought: t\nAction: f\nAction Input:\n')).toContain('empty-action-input');
  });

  it('a missing Action Input is a typed error naming the marker', () => {
    const error = failure('Thought: t\nAction: f\n');
    expect(error).toMatchObject({
      code: 'REACT_PARSE_ERROR',
      reason: 'missing-action-input',
      marker: 'Action Input:',
    });
    expect(failure('Thought: only a thought')).toMatchObject({
      reason: 'missing-action',
      marker: 'Action:',
    });
    expect(failure('Thought: t\nAction: f Action Input: {}')).toMatchObject({
      reason: 'missing-action-input',
    });
  });

  it('an empty Action name is an error (the reference would call the first function)', () => {
    expect(failure('Thought: t\nAction: \nAction Input: {"a": 1}')).toMatchObject({
      reason: 'empty-action',
    });
  });

  it('the action name is trimmed (spaces, tabs, carriage returns)', () => {
    const s = step('Thought: t\nAction:  author_with_his_photo_for_x \r\nAction Input: {}');
    expect(s.action).toBe('author_with_his_photo_for_x');
    expect(s.warnings.map((w) => w.code)).toContain('action-trimmed');
  });

  it('CJK text in the thought, name and input', () => {
    expect(
      step(
        'Thought: 我需要查询天气\nAction: 天气_for_weather\nAction Input: {"城市": "北京", "note": "温度}{"}',
      ),
    ).toMatchObject({
      thought: '我需要查询天气',
      action: '天气_for_weather',
      actionInput: { 城市: '北京', note: '温度}{' },
    });
  });

  it('Markdown code fences around the Action Input are stripped', () => {
    const s = step('Thought: t\nAction: f\nAction Input: ```json\n{"a": "b"}\n```');
    expect(s).toMatchObject({ actionInput: { a: 'b' }, complete: true });
    expect(s.warnings.map((w) => w.code)).toEqual(['code-fence']);
    expect(
      step('Thought: t\nAction: f\nAction Input:\n```\n{"a": 1}\n```\nmore text').actionInput,
    ).toEqual({ a: 1 });
  });

  it('unterminated JSON (a Finish answer stopping mid-string) is repaired', () => {
    const s = step(
      'Thought: done\nAction: Finish\nAction Input: {\n"return_type": "give_answer",\n"final_answer": "The answer is 4',
    );
    expect(s).toMatchObject({
      action: 'Finish',
      actionInput: { return_type: 'give_answer', final_answer: 'The answer is 4' },
      parsedBy: 'repaired',
      complete: false,
    });
    expect(s.warnings.map((w) => w.code)).toContain('unterminated-json');
  });

  it('unterminated JSON cut inside nested values or after a backslash is closed in one pass', () => {
    expect(step('Thought: t\nAction: f\nAction Input: {"a": [1, {"b": "x}').actionInput).toEqual({
      a: [1, { b: 'x}' }],
    });
    expect(step('Thought: t\nAction: f\nAction Input: {"a": "line\\').actionInput).toEqual({
      a: 'line',
    });
    // What closing alone cannot fix goes to jsonrepair (a dangling key).
    expect(step('Thought: t\nAction: f\nAction Input: {"a": 1, "b":').actionInput).toMatchObject({
      a: 1,
    });
  });

  it('a Finish without final_answer still parses (the Finish rules decide what it means)', () => {
    expect(
      step('Thought: t\nAction: Finish\nAction Input: {"return_type": "give_answer"}').actionInput,
    ).toEqual({
      return_type: 'give_answer',
    });
  });

  it('raw newlines inside strings (valid only for a non-strict parse) are repaired', () => {
    const s = step(
      'Thought: t\nAction: Finish\nAction Input: {"return_type": "give_answer", "final_answer": "line 1\nline 2"}',
    );
    expect(s).toMatchObject({
      parsedBy: 'repaired',
      actionInput: { final_answer: 'line 1\nline 2' },
    });
  });

  it('unquoted non-JSON values are repaired', () => {
    expect(
      step('Thought: t\nAction: f\nAction Input: {"phone": 555-555-5555, "name": "x"}').actionInput,
    ).toMatchObject({
      name: 'x',
    });
  });

  it('text before the first { is skipped with a warning', () => {
    const s = step('Thought: t\nAction: f\nAction Input: the input is {"q": "x"}');
    expect(s.actionInput).toEqual({ q: 'x' });
    expect(s.warnings.map((w) => w.code)).toEqual(['text-before-json']);
  });

  it('no { at all: key-value pairs are extracted as a last resort, else a typed error', () => {
    expect(step('Thought: t\nAction: f\nAction Input: q: birthday party ideas')).toMatchObject({
      actionInput: { q: 'birthday party ideas' },
      parsedBy: 'extracted',
    });
    expect(failure('Thought: t\nAction: f\nAction Input: birthday party ideas')).toMatchObject({
      reason: 'invalid-action-input',
    });
  });

  it('a new turn before any { means there is no JSON (the observation is not taken as input)', () => {
    const s = step(
      'Thought: t\nAction: f\nAction Input: \nFunction: {"error": "", "response": "x"}',
    );
    expect(s).toMatchObject({ actionInput: {}, parsedBy: 'empty', complete: false });
  });

  it('nested object and array values are kept', () => {
    expect(
      step(
        'Thought: t\nAction: f\nAction Input: {"colors": ["#E11D48", "#FFF"], "o": {"k": [1, {"z": null}]}}',
      ).actionInput,
    ).toEqual({
      colors: ['#E11D48', '#FFF'],
      o: { k: [1, { z: null }] },
    });
  });

  it('markers count only at line starts: "Action:" inside the thought is text', () => {
    expect(step('Thought: I need the Action: tool\nAction: real\nAction Input: {}')).toMatchObject({
      thought: 'I need the Action: tool',
      action: 'real',
    });
  });

  it('a missing Thought marker: the text before the Action is the thought', () => {
    const s = step('I should search.\nAction: f\nAction Input: {}');
    expect(s.thought).toBe('I should search.');
    expect(s.warnings.map((w) => w.code)).toEqual(['missing-thought-marker']);
  });

  it('single-quoted Python-style input is repaired', () => {
    expect(step("Thought: t\nAction: f\nAction Input: {'q': 'x', 'n': 2}").actionInput).toEqual({
      q: 'x',
      n: 2,
    });
  });
});
