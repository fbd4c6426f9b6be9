import { ExpressionError } from '../errors/expression-error.js';
import type { CompiledExpression, ExpressionNode } from './ast.js';

/** What expressions can read: `vars`, `input`, `nodes`, `output`, `thread`… (own properties only). */
export type ExpressionScope = Readonly<Record<string, unknown>>;

function read(value: unknown, segment: string | number): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' && typeof value !== 'string') return undefined;
  if (typeof value === 'string') return segment === 'length' ? value.length : undefined;
  if (Array.isArray(value) && segment === 'length') return value.length;
  // Own properties only: no prototype methods, no getters inherited from classes.
  return Object.hasOwn(value, segment)
    ? (value as Record<string | number, unknown>)[segment]
    : undefined;
}

function sameScalar(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // null and a missing value are the same absence.
  if (a === undefined || a === null || b === undefined || b === null)
    return (a ?? null) === (b ?? null);
  return false;
}

/** Deep equality of lists, by value for scalars; iterative, as values may nest deeper than the stack. */
function equal(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop()!;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push([x[i], y[i]]);
    } else if (!sameScalar(x, y)) return false;
  }
  return true;
}

function contains(collection: unknown, item: unknown, source: string): boolean {
  if (Array.isArray(collection)) return collection.some((x) => equal(x, item));
  if (typeof collection === 'string') return typeof item === 'string' && collection.includes(item);
  if (collection !== null && typeof collection === 'object')
    return (
      (typeof item === 'string' || typeof item === 'number') && Object.hasOwn(collection, item)
    );
  if (collection === undefined || collection === null) return false;
  throw ExpressionError.evaluation(source, `"in" needs a list, a string or an object on its right`);
}

/** A value for an error message: short, and never a throw of its own. */
function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

function number(value: unknown, op: string, source: string): number {
  if (typeof value !== 'number')
    throw ExpressionError.evaluation(source, `"${op}" needs numbers, got ${describeValue(value)}`);
  return value;
}

function compare(a: unknown, b: unknown, op: string, source: string): boolean {
  if (
    !(
      (typeof a === 'number' && typeof b === 'number') ||
      (typeof a === 'string' && typeof b === 'string')
    )
  ) {
    // Comparing a missing value is false rather than an error: a condition on a variable that is
    // not set yet simply does not hold.
    if (a === undefined || b === undefined || a === null || b === null) return false;
    throw ExpressionError.evaluation(source, `"${op}" needs two numbers or two strings`);
  }
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

function evaluateNode(node: ExpressionNode, scope: ExpressionScope, source: string): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'array':
      return node.items.map((item) => evaluateNode(item, scope, source));
    case 'path': {
      let value: unknown = scope;
      for (const segment of node.segments) value = read(value, segment);
      return value;
    }
    case 'unary': {
      const operand = evaluateNode(node.operand, scope, source);
      return node.op === '!' ? !truthy(operand) : -number(operand, '-', source);
    }
    case 'binary': {
      if (node.op === '&&') {
        const left = evaluateNode(node.left, scope, source);
        return truthy(left) ? evaluateNode(node.right, scope, source) : left;
      }
      if (node.op === '||') {
        const left = evaluateNode(node.left, scope, source);
        return truthy(left) ? left : evaluateNode(node.right, scope, source);
      }
      const left = evaluateNode(node.left, scope, source);
      const right = evaluateNode(node.right, scope, source);
      switch (node.op) {
        case '==':
          return equal(left, right);
        case '!=':
          return !equal(left, right);
        case '<':
        case '<=':
        case '>':
        case '>=':
          return compare(left, right, node.op, source);
        case 'in':
          return contains(right, left, source);
        case 'not in':
          return !contains(right, left, source);
        case '+':
          if (typeof left === 'string' || typeof right === 'string') {
            if (typeof left === 'object' || typeof right === 'object')
              throw ExpressionError.evaluation(source, '"+" cannot join objects');
            return `${String(left ?? '')}${String(right ?? '')}`;
          }
          return number(left ?? 0, '+', source) + number(right, '+', source);
        case '-':
          return number(left, '-', source) - number(right, '-', source);
        case '*':
          return number(left, '*', source) * number(right, '*', source);
        case '/':
          return number(left, '/', source) / number(right, '/', source);
        case '%':
          return number(left, '%', source) % number(right, '%', source);
      }
    }
  }
}

/** Evaluates a compiled expression against a scope. Missing paths read as `undefined`. */
export function evaluateExpression(
  expression: CompiledExpression,
  scope: ExpressionScope,
): unknown {
  return evaluateNode(expression.ast, scope, expression.source);
}
