import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpressionError } from '../errors/expression-error.js';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import { errorWith } from '../test-support/error-with.js';
import { validateWorkflow } from '../workflow/validate-workflow.js';
import { evaluateExpression } from './evaluate.js';
import { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_TOKENS } from './expression-limits.js';
import { compileExpression } from './parser.js';
import { compileTemplate, renderTemplate } from './template.js';

// Compile must refuse what evaluation cannot run: an expression either compiles and evaluates
// without exhausting the stack, or is refused at compile time with a typed error naming the limit.

const N = 100_000;
const hostile: Record<string, string> = {
  'a 100,000-term sum': `a${' + a'.repeat(N - 1)}`,
  'a 100,000-term or': `a${' or a'.repeat(N - 1)}`,
  'nested parentheses': `${'('.repeat(N)}a${')'.repeat(N)}`,
  'nested lists': `${'['.repeat(N)}${']'.repeat(N)}`,
  'repeated !': `${'!'.repeat(N)}a`,
  'repeated not': `${'not '.repeat(N)}a`,
  'repeated unary minus': `${'-'.repeat(N)}1`,
  'a long path': `a${'.b'.repeat(N)}`,
};

function compileError(source: string): unknown {
  try {
    compileExpression(source);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('expression size and depth limits', () => {
  for (const [name, source] of Object.entries(hostile))
    it(`refuses ${name} at compile time with EXPRESSION_TOO_COMPLEX`, () => {
      const error = compileError(source);
      expect(error).toBeInstanceOf(ExpressionError);
      expect((error as ExpressionError).code).toBe('EXPRESSION_TOO_COMPLEX');
      expect((error as Error).message).toMatch(/at most (256 levels|10000 tokens)/);
      // The message quotes the start of the expression, not all of it.
      expect((error as Error).message.length).toBeLessThan(400);
    });

  it('evaluates what it accepts at the limits', () => {
    const depth = MAX_EXPRESSION_DEPTH - 1;
    const cases: [string, unknown][] = [
      [`${'('.repeat(depth)}1${')'.repeat(depth)}`, 1],
      [`${'!'.repeat(depth)}true`, depth % 2 === 0],
      [`1${' + 1'.repeat(depth - 1)}`, depth],
      [`${'['.repeat(depth)}${']'.repeat(depth)} == []`, false],
    ];
    for (const [source, expected] of cases)
      expect(evaluateExpression(compileExpression(source), {}), source.slice(0, 20)).toEqual(
        expected,
      );
    const wide = `[${Array.from({ length: Math.floor((MAX_EXPRESSION_TOKENS - 3) / 2) }, () => '1').join(',')}]`;
    expect(evaluateExpression(compileExpression(`1 in ${wide}`), {})).toBe(true);
  });

  it('any nesting of operators either compiles and evaluates, or is refused with the typed error', () => {
    const piece = fc.constantFrom(
      '(',
      ')',
      '!',
      'not ',
      '-',
      '+',
      ' and ',
      '[',
      ']',
      ',',
      '1',
      'a.b',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 50 }),
        fc.integer({ min: 1, max: 400 }),
        (parts, times) => {
          const source = Array.from({ length: times }, () => parts.join('')).join('');
          let compiled: ReturnType<typeof compileExpression> | undefined;
          try {
            compiled = compileExpression(source);
          } catch (error) {
            expect((error as { code?: string }).code).toMatch(/^EXPRESSION_(SYNTAX|TOO_COMPLEX)$/);
            return;
          }
          try {
            evaluateExpression(compiled, { a: { b: 1 } });
          } catch (error) {
            expect(error).toEqual(errorWith(ExpressionError, 'EXPRESSION_EVALUATION'));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a workflow with a 100,000-term condition is invalid, naming the edge', () => {
    let error: unknown;
    try {
      validateWorkflow({
        id: 'w',
        version: '1',
        nodes: [
          { id: 'start', type: 'START' },
          { id: 'end', type: 'END' },
        ],
        edges: [
          { id: 'huge', from: 'start', to: 'end', condition: hostile['a 100,000-term sum']! },
        ],
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WorkflowValidationError);
    expect((error as WorkflowValidationError).issues).toEqual([
      expect.objectContaining({ code: 'INVALID_EXPRESSION', edgeId: 'huge' }),
    ]);
  });

  it('deeply nested values in scope compare and render without a RangeError', () => {
    let deep: unknown = [];
    for (let i = 0; i < N; i++) deep = [deep];
    let other: unknown = [];
    for (let i = 0; i < N; i++) other = [other];
    const expression = compileExpression('vars.a == vars.b');
    expect(evaluateExpression(expression, { vars: { a: deep, b: other } })).toBe(true);
    expect(
      evaluateExpression(compileExpression('vars.a in [vars.b]'), { vars: { a: deep, b: [] } }),
    ).toBe(false);
    expect(() =>
      evaluateExpression(compileExpression('vars.a - 1'), { vars: { a: deep } }),
    ).toThrow(errorWith(ExpressionError, 'EXPRESSION_EVALUATION'));
    const template = compileTemplate('value: {{ vars.a }}');
    expect(() => renderTemplate(template, { vars: { a: deep } })).toThrow(
      errorWith(ExpressionError, 'EXPRESSION_EVALUATION'),
    );
  });
});
