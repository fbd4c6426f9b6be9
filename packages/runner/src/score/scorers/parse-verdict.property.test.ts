import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseVerdict, type VerdictShape } from './parse-verdict.js';

const VERDICTS = ['Solved', 'Unsolved', 'Unsure'] as const;
const SHAPE: VerdictShape = {
  reason: { type: 'string' },
  verdict: { type: 'enum', values: VERDICTS },
  grade: { type: 'integer', min: 0, max: 10 },
};

const verdict = fc.record({
  reason: fc.string(),
  verdict: fc.constantFrom(...VERDICTS),
  grade: fc.integer({ min: 0, max: 10 }),
});
const space = fc.stringMatching(/^[ \t\n]{0,3}$/);

describe('parseVerdict, for any answer', () => {
  it('reads back every verdict written as JSON, with any white space, key order or fence', () => {
    fc.assert(
      fc.property(
        verdict,
        space,
        space,
        fc.boolean(),
        fc.boolean(),
        (value, before, after, fence, reversed) => {
          const keys = reversed ? ['grade', 'verdict', 'reason'] : ['reason', 'verdict', 'grade'];
          let text = JSON.stringify(value, keys, fence ? 2 : undefined);
          if (fence) text = `\`\`\`json\n${text}\n\`\`\``;
          expect(parseVerdict(`${before}${text}${after}`, SHAPE)).toEqual({ ok: true, value });
        },
      ),
    );
  });

  it('never throws, and accepts only objects of exactly the shape', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          verdict.map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const parsed = parseVerdict(text, SHAPE);
          if (!parsed.ok) {
            expect(parsed.problem).not.toBe('');
            return;
          }
          const value = parsed.value;
          expect(Object.keys(value).sort()).toEqual(['grade', 'reason', 'verdict']);
          expect(typeof value.reason).toBe('string');
          expect(VERDICTS).toContain(value.verdict);
          expect(Number.isInteger(value.grade) && (value.grade as number) >= 0).toBe(true);
        },
      ),
    );
  });

  it('refuses a verdict with a field added, dropped or out of its range', () => {
    fc.assert(
      fc.property(
        verdict,
        fc.oneof(
          fc
            .record({ extra: fc.string({ minLength: 1 }).filter((k) => !(k in SHAPE)) })
            .map(({ extra }) => (v: Record<string, unknown>) => ({ ...v, [extra]: 1 })),
          fc
            .constantFrom('reason', 'verdict', 'grade')
            .map((key) => (v: Record<string, unknown>) => {
              const { [key]: _, ...rest } = v;
              return rest;
            }),
          fc.integer({ min: 11 }).map((grade) => (v: Record<string, unknown>) => ({ ...v, grade })),
          fc
            .string()
            .filter((w) => !(VERDICTS as readonly string[]).includes(w))
            .map((word) => (v: Record<string, unknown>) => ({ ...v, verdict: word })),
        ),
        (value, spoil) => {
          expect(parseVerdict(JSON.stringify(spoil(value)), SHAPE).ok).toBe(false);
        },
      ),
    );
  });
});
