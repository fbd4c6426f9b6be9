import { describe, expect, it } from 'vitest';
import { parseVerdict, type VerdictShape, verdictSchema } from './parse-verdict.js';

const SHAPE: VerdictShape = {
  reason: { type: 'string' },
  verdict: { type: 'enum', values: ['Solved', 'Unsolved', 'Unsure'] },
};

describe('parseVerdict', () => {
  it('reads one JSON object with exactly the fields asked for', () => {
    expect(parseVerdict('{"reason":"ok","verdict":"Solved"}', SHAPE)).toEqual({
      ok: true,
      value: { reason: 'ok', verdict: 'Solved' },
    });
  });

  it('allows white space and one code fence around the whole answer', () => {
    const fenced = '\n```json\n{"reason": "ok", "verdict": "Unsure"}\n```\n';
    expect(parseVerdict(fenced, SHAPE)).toMatchObject({ ok: true, value: { verdict: 'Unsure' } });
  });

  it.each([
    ['prose', 'The answer is Solved.', 'not one JSON object'],
    ['prose around JSON', 'Verdict: {"reason":"x","verdict":"Solved"}', 'not one JSON object'],
    ['an empty answer', '   ', 'empty'],
    ['a list', '[{"reason":"x","verdict":"Solved"}]', 'not one JSON object'],
    ['a word out of the list', '{"reason":"x","verdict":"solved"}', '"verdict" is "solved"'],
    ['a missing field', '{"verdict":"Solved"}', '"reason" is missing'],
    ['an extra field', '{"reason":"x","verdict":"Solved","score":1}', '"score" is not a field'],
    ['a reason that is not text', '{"reason":1,"verdict":"Solved"}', '"reason" is not a string'],
    [
      'two objects',
      '{"reason":"x","verdict":"Solved"}{"reason":"y","verdict":"Unsolved"}',
      'not one',
    ],
  ])('refuses %s', (_, text, problem) => {
    const parsed = parseVerdict(text, SHAPE);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toContain(problem);
  });

  it('checks a grade is a whole number in its range', () => {
    const grade: VerdictShape = {
      reason: { type: 'string' },
      score: { type: 'integer', min: 0, max: 4 },
    };
    expect(parseVerdict('{"reason":"x","score":3}', grade)).toMatchObject({ ok: true });
    for (const bad of ['5', '-1', '2.5', '"3"'])
      expect(parseVerdict(`{"reason":"x","score":${bad}}`, grade).ok).toBe(false);
  });

  it('gives the schema a provider can hold the model to', () => {
    expect(verdictSchema(SHAPE)).toEqual({
      type: 'object',
      properties: {
        reason: { type: 'string' },
        verdict: { type: 'string', enum: ['Solved', 'Unsolved', 'Unsure'] },
      },
      required: ['reason', 'verdict'],
      additionalProperties: false,
    });
  });
});
