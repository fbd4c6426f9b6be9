import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolBenchError } from '../errors/toolbench-error.js';
import { inferenceText, recordedSteps, trainingText } from '../testing/fixtures.js';
import { parseReAct } from './parse-react.js';
import { ReActStopDetector } from './stop-detector.js';

// Where the tolerant parser says the Action Input object ends, or -1 when it is not complete.
function parserStop(text: string): number {
  try {
    const step = parseReAct(text);
    return step.complete ? step.end : -1;
  } catch (error) {
    if (!ToolBenchError.isInstance(error) || error.code !== 'REACT_PARSE_ERROR') throw error;
    const { complete, end } = error.details as { complete?: boolean; end?: number };
    return complete === true && typeof end === 'number' ? end : -1;
  }
}

function detectorStop(text: string, chunkSizes: readonly number[]): number {
  const detector = new ReActStopDetector();
  let at = 0;
  let k = 0;
  while (at < text.length) {
    const size = chunkSizes.length === 0 ? 4 : chunkSizes[k++ % chunkSizes.length]!;
    detector.feed(text.slice(at, at + size));
    at += size;
  }
  return detector.done ? detector.stopIndex : -1;
}

/** The detector on the whole text agrees with the parser on every prefix of it. */
function expectAgreementOnEveryPrefix(text: string, chunkSizes: readonly number[] = []): void {
  const stop = detectorStop(text, chunkSizes);
  for (let length = 0; length <= text.length; length++) {
    const prefix = text.slice(0, length);
    const expected = parserStop(prefix);
    const detected = stop >= 0 && stop <= length ? stop : -1;
    if (detected !== expected)
      throw new Error(
        `prefix ${length} of ${JSON.stringify(text)}: detector ${detected}, parser ${expected}`,
      );
  }
}

const FRAGMENTS = [
  'Thought: ',
  'Action: ',
  'Action Input: ',
  'Function: ',
  'Observation: ',
  'Action:',
  'Thought:',
  '\n',
  '\n',
  ' ',
  '\t',
  '\r',
  '\x01',
  '\u00a0',
  '{',
  '}',
  '"',
  '\\',
  ':',
  ',',
  '```',
  'json',
  'f',
  'Finish',
  'x',
  '中',
  '😀',
  '"a": 1',
  '{"q": "}"}',
  // The find-based markers and the line-anchored variants they must be told apart from.
  '\nAction: ',
  '\nAction Input: ',
  '  Action Input: ',
  'Action Input:',
  '\r\n',
  '\x85',
];
const reactish = fc
  .array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 })
  .map((parts) => parts.join(''));
const chunking = fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 6 });

// Lines of thought that cannot be mistaken for markers (no colon at all).
const thoughtText = fc
  .array(
    fc.string({
      unit: fc.constantFrom('a', 'b', ' ', '{', '}', '"', '中', '😀', '\n', 'Action', 'Thought'),
    }),
    {
      maxLength: 4,
    },
  )
  .map((lines) => lines.join(''));
const actionName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,20}$/);
const args = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 });

describe('parser properties (fast-check)', () => {
  it('a well-formed step parses back to its thought, action and arguments, in both modes', () => {
    fc.assert(
      fc.property(
        thoughtText,
        actionName,
        args,
        fc.constantFrom(0, 2),
        (thought, action, value, indent) => {
          const json = JSON.stringify(value, null, indent);
          const text = `Thought: ${thought}\nAction: ${action}\nAction Input: ${json}`;
          const tolerant = parseReAct(text);
          expect(tolerant.action).toBe(action);
          expect(tolerant.actionInput).toEqual(JSON.parse(json));
          expect(tolerant).toMatchObject({
            complete: true,
            end: text.length,
            parsedBy: 'strict',
            rawActionInput: json,
          });
          expect(tolerant.thought).toBe(thought.trim());
          expect(parseReAct(text, { mode: 'reference' })).toEqual({
            thought,
            action,
            actionInput: json,
          });
        },
      ),
    );
  });

  it('trailing text and hallucinated turns after the object change nothing but the warnings', () => {
    fc.assert(
      fc.property(actionName, args, reactish, (action, value, tail) => {
        const json = JSON.stringify(value);
        const head = `Thought: t\nAction: ${action}\nAction Input: ${json}`;
        const step = parseReAct(`${head}${tail}`);
        expect(step.actionInput).toEqual(JSON.parse(json));
        expect(step.end).toBe(head.length);
      }),
    );
  });

  it('on any text the tolerant parser returns a step or throws REACT_PARSE_ERROR, the reference parser never throws', () => {
    fc.assert(
      fc.property(fc.oneof(reactish, fc.string()), (text) => {
        try {
          const step = parseReAct(text);
          expect(step.action).not.toBe('');
          expect(step.end).toBeLessThanOrEqual(text.length);
        } catch (error) {
          expect(error).toBeInstanceOf(ToolBenchError);
          expect((error as ToolBenchError).code).toBe('REACT_PARSE_ERROR');
        }
        const reference = parseReAct(text, { mode: 'reference' });
        if (text.includes('Action Input: '))
          expect(text.endsWith(reference.actionInput)).toBe(true);
      }),
    );
  });
});

describe('ReActStopDetector vs the tolerant parser', () => {
  const steps = recordedSteps();

  it('agrees on every prefix of every fixture step (both layouts, with a hallucinated tail)', () => {
    for (const step of steps) {
      for (const text of [
        inferenceText(step),
        trainingText(step),
        `${inferenceText(step)}\nFunction: {"error": ""}\n`,
      ]) {
        expectAgreementOnEveryPrefix(text);
      }
    }
  });

  it('agrees on every prefix of generated ReAct-like text, whatever the chunking', () => {
    fc.assert(
      fc.property(reactish, chunking, (text, sizes) => {
        expectAgreementOnEveryPrefix(text, sizes);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees where the find-based and the line-anchored markers point at different objects', () => {
    for (const text of [
      // Line-anchored first, then the find-based markers: the later object is the answer.
      '  Action: x\n  Action Input: {"a": 1}\nThought: t\nAction: y\nAction Input: {"b": 2}\nmore',
      'Action:x\nAction Input:{"a": 1}\nThought: t\nAction: y\nAction Input: {"b": 2}',
      // The name on the line after "Action: ", and an "Action:" line the original reads as a name.
      'Thought: t\nAction: \ny\n\nAction Input: {"b": 2} tail',
      'Thought: \nAction: \nAction: a\nAction Input: {}',
      // "\nAction Input: " before any usable name: the line-anchored object is final.
      'Action: x\nAction Input: {"a": 1}\nThought: t\nAction: y\nAction Input: {"b": 2}',
      '\nAction Input: z\n  Action: x\n  Action Input: {"a": 1} tail',
      // No "\nAction Input: " ever: nothing is final, generation runs to its end.
      '  Action: x\n  Action Input: {"a": 1}\nObservation: {"b": 2}',
    ])
      expectAgreementOnEveryPrefix(text, [1]);
  });

  it('agrees on every prefix of steps mixing both kinds of markers, whatever the chunking', () => {
    const piece = fc.constantFrom(
      'Thought: t',
      '\n',
      '\r\n',
      'Action: x',
      '\nAction: y',
      '  Action: z',
      'Action:w',
      '\nAction: ',
      '\nAction Input: ',
      '  Action Input: ',
      'Action Input:',
      '{"a": 1}',
      '{"b": "}"',
      '}',
      ' ',
      'Function: {}',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), chunking, (parts, sizes) => {
        expectAgreementOnEveryPrefix(parts.join(''), sizes);
      }),
      { numRuns: 400 },
    );
  });

  it('stops at the same index whatever the chunking', () => {
    fc.assert(
      fc.property(actionName, args, reactish, chunking, (action, value, tail, sizes) => {
        const text = `Thought: t\nAction: ${action}\nAction Input: ${JSON.stringify(value, null, 2)}${tail}`;
        expect(detectorStop(text, sizes)).toBe(detectorStop(text, [1]));
        expect(detectorStop(text, sizes)).toBe(parserStop(text));
      }),
    );
  });
});
