import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpressionError } from '../errors/expression-error.js';
import { errorWith } from '../test-support/error-with.js';
import type { ExpressionNode } from './ast.js';
import { evaluateExpression } from './evaluate.js';
import { compileExpression } from './parser.js';
import { compileTemplate, renderTemplate } from './template.js';

const scope = {
  vars: { user: { tier: 'gold', age: 41, tags: ['a', 'b'] }, count: 3, name: 'Ada', empty: [] },
  input: 'hello',
};
const run = (source: string, s: Record<string, unknown> = scope) =>
  evaluateExpression(compileExpression(source), s);

describe('expressions', () => {
  it('reads paths, compares and combines', () => {
    expect(run('vars.user.tier == "gold"')).toBe(true);
    expect(run("vars.user.tier != 'gold'")).toBe(false);
    expect(run('vars.count >= 3 and vars.user.age < 50')).toBe(true);
    expect(run('vars.count > 3 || vars.name == "Ada"')).toBe(true);
    expect(run('not vars.count == 3')).toBe(false);
    expect(run('!vars.missing')).toBe(true);
    expect(run('vars.user["tier"]')).toBe('gold');
    expect(run('vars.user.tags[1]')).toBe('b');
  });

  it('supports in, not in, lists and arithmetic', () => {
    expect(run('vars.user.tier in ["gold", "platinum"]')).toBe(true);
    expect(run('"c" not in vars.user.tags')).toBe(true);
    expect(run('"ell" in input')).toBe(true);
    expect(run('"tier" in vars.user')).toBe(true);
    expect(run('vars.count + 1')).toBe(4);
    expect(run('(vars.count + 1) * 2 - 10 / 5 % 3')).toBe(6);
    expect(run('-vars.count')).toBe(-3);
    expect(run('"Hi " + vars.name')).toBe('Hi Ada');
    expect(run('vars.user.tags.length == 2')).toBe(true);
  });

  it('treats missing values as undefined, not as errors', () => {
    expect(run('vars.nope.deeper')).toBeUndefined();
    expect(run('vars.nope > 3')).toBe(false);
    expect(run('vars.nope == null')).toBe(true);
    expect(run('vars.empty')).toEqual([]);
    expect(run('vars.empty or "fallback"')).toBe('fallback');
  });

  it('cannot reach the prototype chain or call functions', () => {
    expect(() => compileExpression('vars.__proto__')).toThrow(
      errorWith(ExpressionError, 'EXPRESSION_SYNTAX'),
    );
    expect(() => compileExpression('vars.constructor')).toThrow(/not accessible/);
    expect(() => compileExpression('vars["prototype"]')).toThrow(/not accessible/);
    expect(() => compileExpression('vars.name.toUpperCase()')).toThrow(/Function calls/);
    // Inherited members read as undefined.
    expect(run('vars.user.hasOwnProperty')).toBeUndefined();
    expect(run('vars.name.length')).toBe(3);
  });

  it('reports syntax errors with the position', () => {
    const cases: [string, number, RegExp][] = [
      ['vars.a ==', 9, /end of expression/],
      ['vars.a == "x', 10, /Unterminated string/],
      ['(vars.a', 7, /Expected "\)"/],
      ['vars.a # 1', 7, /Unexpected character "#"/],
      ['1 < 2 < 3', 6, /cannot be chained/],
      ['', 0, /Empty expression/],
      ['vars.', 5, /property name/],
    ];
    for (const [source, position, message] of cases) {
      let error: unknown;
      try {
        compileExpression(source);
      } catch (e) {
        error = e;
      }
      expect(error, source).toBeInstanceOf(ExpressionError);
      expect((error as ExpressionError).position, source).toBe(position);
      expect((error as Error).message, source).toMatch(message);
      expect((error as ExpressionError).code).toBe('EXPRESSION_SYNTAX');
    }
  });

  it('reports evaluation errors as typed errors', () => {
    expect(() => run('vars.name * 2')).toThrow(errorWith(ExpressionError, 'EXPRESSION_EVALUATION'));
    expect(() => run('vars.user < 3')).toThrow(/two numbers or two strings/);
    expect(() => run('1 in 2')).toThrow(/"in" needs/);
  });

  it('renders templates', () => {
    const template = compileTemplate(
      'Hello {{ vars.name }}, you are {{vars.user.age}} ({{ vars.user.tags }}){{ vars.nope }}!',
    );
    expect(renderTemplate(template, scope)).toBe('Hello Ada, you are 41 (["a","b"])!');
    expect(renderTemplate(compileTemplate('no holes'), scope)).toBe('no holes');
  });
});

// Property: printing any expression tree and parsing it back gives the same tree.
const leaf: fc.Arbitrary<ExpressionNode> = fc.oneof(
  fc.integer({ min: 0, max: 1000 }).map((value) => ({ kind: 'literal' as const, value })),
  fc.string({ maxLength: 5 }).map((value) => ({ kind: 'literal' as const, value })),
  fc.constantFrom(true, false, null).map((value) => ({ kind: 'literal' as const, value })),
  fc
    .array(
      fc
        .stringMatching(/^[a-z_][a-z0-9_]{0,4}$/)
        .filter((s) => !['true', 'false', 'null', 'and', 'or', 'not', 'in'].includes(s)),
      { minLength: 1, maxLength: 3 },
    )
    .map((segments) => ({ kind: 'path' as const, segments })),
);
const tree = fc.letrec<{ node: ExpressionNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({
      kind: fc.constant('unary' as const),
      op: fc.constantFrom('!' as const, '-' as const),
      operand: tie('node'),
    }),
    fc.record({
      kind: fc.constant('binary' as const),
      op: fc.constantFrom(
        '||',
        '&&',
        '==',
        '!=',
        '<',
        '<=',
        '>',
        '>=',
        'in',
        'not in',
        '+',
        '-',
        '*',
        '/',
        '%',
      ),
      left: tie('node'),
      right: tie('node'),
    }) as fc.Arbitrary<ExpressionNode>,
    fc.record({
      kind: fc.constant('array' as const),
      items: fc.array(tie('node'), { maxLength: 3 }),
    }),
  ),
})).node;

function print(node: ExpressionNode): string {
  switch (node.kind) {
    case 'literal':
      return typeof node.value === 'string' ? JSON.stringify(node.value) : String(node.value);
    case 'path':
      return node.segments.join('.');
    case 'array':
      return `[${node.items.map(print).join(', ')}]`;
    case 'unary':
      return `(${node.op}${print(node.operand)})`;
    case 'binary':
      return `(${print(node.left)} ${node.op} ${print(node.right)})`;
  }
}

describe('expression parser (property)', () => {
  it('parses the printed form of any tree back to the same tree', () => {
    fc.assert(
      fc.property(tree, (node) => {
        expect(compileExpression(print(node)).ast).toEqual(node);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws anything but an EXPRESSION_SYNTAX ExpressionError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (source) => {
        try {
          compileExpression(source);
        } catch (error) {
          expect(error).toEqual(errorWith(ExpressionError, 'EXPRESSION_SYNTAX'));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
