import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GUARDRAIL_STAGES } from './guardrail.js';
import { parseClassifierVerdict } from './model-guardrail.js';
import { verdictProblem } from './run-guardrails.js';

describe('parseClassifierVerdict', () => {
  it('reads back every well-formed verdict, fenced or not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('pass', 'trip'),
        fc.string(),
        fc.boolean(),
        (verdict, reason, fenced) => {
          const json = JSON.stringify({ verdict, reason });
          const text = fenced ? `\`\`\`json\n${json}\n\`\`\`` : ` ${json}\n`;
          expect(parseClassifierVerdict(text)).toEqual({ verdict, reason });
        },
      ),
    );
  });

  it('never reads a pass out of anything else: it throws or says trip', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        let parsed: ReturnType<typeof parseClassifierVerdict> | undefined;
        try {
          parsed = parseClassifierVerdict(text);
        } catch {
          return;
        }
        // Only an object whose verdict is exactly "pass" (or "trip") with a string reason.
        const value = JSON.parse(text.trim());
        expect(value.verdict).toBe(parsed.verdict);
        expect(typeof value.reason).toBe('string');
      }),
    );
  });
});

describe('verdictProblem', () => {
  const verdict = fc.oneof(
    fc.record({ action: fc.constant('pass') }),
    fc.record({ action: fc.constant('trip'), reason: fc.string() }),
    fc.record({ action: fc.constant('refuse'), reason: fc.string() }),
    fc.record({ action: fc.constant('redact'), content: fc.string() }),
  );

  it('accepts exactly the actions a stage allows', () => {
    fc.assert(
      fc.property(verdict, fc.constantFrom(...GUARDRAIL_STAGES), (v, stage) => {
        const allowed =
          v.action === 'pass' ||
          v.action === 'trip' ||
          (v.action === 'refuse' && stage === 'tool-call') ||
          (v.action === 'redact' && stage === 'tool-result');
        expect(verdictProblem(v, stage) === undefined).toBe(allowed);
      }),
    );
  });

  it('refuses any value that is not a verdict, naming what is wrong', () => {
    fc.assert(
      fc.property(fc.anything(), fc.constantFrom(...GUARDRAIL_STAGES), (value, stage) => {
        fc.pre(
          !(
            typeof value === 'object' &&
            value !== null &&
            ['pass', 'trip', 'refuse', 'redact'].includes(
              (value as { action?: unknown }).action as string,
            )
          ),
        );
        expect(verdictProblem(value, stage)).toMatch(/verdict|action/);
      }),
    );
  });
});
