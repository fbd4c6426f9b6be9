import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReAct } from './parse-react.js';

// The original ToolLLaMA parser quoted in issue 10, ported line by line. It shares no code with
// the parser under test: its own strip (Python's whitespace), its own slicing, JSON.parse for
// json.loads (the generator below writes only JSON both read alike; NaN/Infinity have their own
// example test).
//
//   thought_start = prediction.find("Thought: ")
//   action_start = prediction.find("\nAction: ")
//   action_input_start = prediction.find("\nAction Input: ")
//   if thought_start != -1 and action_start != -1 and action_input_start != -1:
//       action_name = prediction[action_start + len("\nAction: "):action_input_start].strip()
//       action_input_str = prediction[action_input_start + len("\nAction Input: "):].strip()

const PY_WHITESPACE = new Set([
  ...'\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
]);

function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PY_WHITESPACE.has(text[start]!)) start++;
  while (end > start && PY_WHITESPACE.has(text[end - 1]!)) end--;
  return text.slice(start, end);
}

// Python's slice with a stop before the start is empty, as is JavaScript's.
function originalParse(
  prediction: string,
): { readonly action: string; readonly args: Record<string, unknown> } | undefined {
  const thoughtStart = prediction.indexOf('Thought: ');
  const actionStart = prediction.indexOf('\nAction: ');
  const actionInputStart = prediction.indexOf('\nAction Input: ');
  if (thoughtStart === -1 || actionStart === -1 || actionInputStart === -1) return undefined;
  const action = pythonStrip(prediction.slice(actionStart + '\nAction: '.length, actionInputStart));
  const input = pythonStrip(prediction.slice(actionInputStart + '\nAction Input: '.length));
  // The domain of the issue: a one-line action name and JSON that json.loads accepts (an object:
  // the arguments of a call).
  if (action === '' || action.includes('\n')) return undefined;
  let args: unknown;
  try {
    args = JSON.parse(input);
  } catch {
    return undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return { action, args: args as Record<string, unknown> };
}

// Python's default separators, written apart from the package's own JSON writer.
function pythonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonDumps(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

const newline = fc.constantFrom('\n', '\r\n');
const thoughtPart = fc.constantFrom(
  'I will search',
  ' ',
  'Action: ',
  'Action Input: ',
  'Action:',
  '\n',
  '\r\n',
  '  Action: indented',
  '\tAction Input: {"t": 1}',
  'Action:tight',
  '{"a": 1}',
  'Thought: ',
  '中文',
  'café',
  '😀',
);
const thought = fc.array(thoughtPart, { maxLength: 8 }).map((parts) => parts.join(''));
// Text before the Thought: lines the tolerant markers accept but the original's do not.
const lead = fc.constantFrom(
  '',
  'Action: early\n',
  'Action: early\nAction Input: {"early": true}\n',
  '  Action: early\n  Action Input: {"early": 1}\n',
  'Action:early\nAction Input:{"early": 2}\n',
  '\n',
);
const nameChar = fc.constantFrom(
  ...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_-.',
  ' ',
  ':',
  '中',
  'é',
);
const name = fc
  .tuple(
    fc.constantFrom('a', 'Z', '9', '_', '中', 'F'),
    fc.string({ unit: nameChar, maxLength: 12 }),
  )
  .map(([first, rest]) => `${first}${rest}`.replace(/[ :]+$/, ''));
// Whitespace around the name, as Python's strip() removes it (a newline before the name puts it
// on a line of its own, still one line).
const beforeName = fc.constantFrom('', ' ', '  ', '\t', '\n', ' \r\n', '\u00a0', '\x85');
const afterName = fc.constantFrom('', ' ', '   ', '\t', '\r', ' \x1c', '\u3000', '\n', '\n\n');
const args = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const layout = fc.constantFrom<(value: unknown) => string>(
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 2),
  (v) => JSON.stringify(v, null, '\t'),
  pythonDumps,
);
const aroundInput = fc.constantFrom('', ' ', '\n', '\r\n', '\t', '  \n', '\x1c', '\x85');

const prediction = fc
  .record({
    lead,
    thought,
    nl1: newline,
    beforeName,
    name,
    afterName,
    nl2: newline,
    args,
    layout,
    before: aroundInput,
    after: aroundInput,
  })
  .map(
    (p) =>
      `${p.lead}Thought: ${p.thought}${p.nl1}Action: ${p.beforeName}${p.name}${p.afterName}${p.nl2}` +
      `Action Input: ${p.before}${p.layout(p.args)}${p.after}`,
  );

describe('tolerant parser vs the original find-based parser (fast-check)', () => {
  it('gives the same action name and arguments wherever the original finds a one-line name and JSON', () => {
    fc.assert(
      fc.property(prediction, (text) => {
        const expected = originalParse(text);
        fc.pre(expected !== undefined);
        const step = parseReAct(text);
        expect(step.action).toBe(expected?.action);
        expect(step.actionInput).toEqual(expected?.args);
      }),
      { numRuns: 2_000 },
    );
  });

  it('the cases the issue names: trailing spaces after the name, CRLF, Action: inside the thought', () => {
    const cases = [
      'Thought: t\nAction: get_weather   \nAction Input: {"city": "Paris"}',
      'Thought: t\r\nAction: get_weather\r\nAction Input: {"city": "Paris"}\r\n',
      'Thought: I could try Action: other here\nAction: get_weather\nAction Input: {"city": "Paris"}',
      'Action: early\nThought: t\nAction: get_weather\nAction Input: {"city": "Paris"}',
      'Thought: t\n  Action: indented\nAction: get_weather\nAction Input: {"city": "Paris"}',
      'Thought: t\nAction:tight\nAction: get_weather\nAction Input: {"city": "Paris"}',
      'Thought: t\nAction: \nget_weather\n\nAction Input: {"city": "Paris"}',
      'Thought: t\nAction: get_weather\x85\nAction Input: {"city": "Paris"}\x1c',
      '  Action: early\n  Action Input: {"x": 1}\nThought: t\nAction: get_weather\nAction Input: {"city": "Paris"}',
    ];
    for (const text of cases) {
      expect(originalParse(text)).toEqual({ action: 'get_weather', args: { city: 'Paris' } });
      const step = parseReAct(text);
      expect({ text, action: step.action, args: step.actionInput }).toEqual({
        text,
        action: 'get_weather',
        args: { city: 'Paris' },
      });
    }
  });

  it('reads NaN and Infinity as json.loads does', () => {
    // python3 -c 'import json; print(json.loads("{\"a\": NaN, \"b\": -Infinity, \"c\": [Infinity]}"))'
    // {'a': nan, 'b': -inf, 'c': [inf]}
    const step = parseReAct(
      'Thought: t\nAction: f\nAction Input: {"a": NaN, "b": -Infinity, "c": [Infinity]}',
    );
    expect(step.actionInput).toEqual({
      a: Number.NaN,
      b: Number.NEGATIVE_INFINITY,
      c: [Number.POSITIVE_INFINITY],
    });
    expect(step.parsedBy).toBe('strict');
  });
});
