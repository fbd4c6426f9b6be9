import { ExpressionError } from '../errors/expression-error.js';
import type { CompiledExpression } from './ast.js';
import { type ExpressionScope, evaluateExpression } from './evaluate.js';
import { compileExpression } from './parser.js';

/** A string with `{{ expression }}` holes, parsed once. */
export interface CompiledTemplate {
  readonly source: string;
  readonly parts: readonly (string | CompiledExpression)[];
}

export function compileTemplate(source: string): CompiledTemplate {
  const parts: (string | CompiledExpression)[] = [];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{{', i);
    if (open === -1) break;
    const close = source.indexOf('}}', open + 2);
    if (close === -1) break;
    if (open > i) parts.push(source.slice(i, open));
    parts.push(compileExpression(source.slice(open + 2, close).trim()));
    i = close + 2;
  }
  if (i < source.length) parts.push(source.slice(i));
  return { source, parts };
}

function show(value: unknown, source: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    // Too deep for the stack, a cycle, a BigInt inside: say which hole, not a RangeError.
    throw ExpressionError.evaluation(
      source,
      `its value cannot be written as JSON (${(error as Error).message})`,
    );
  }
}

export function renderTemplate(template: CompiledTemplate, scope: ExpressionScope): string {
  let out = '';
  for (const part of template.parts)
    out += typeof part === 'string' ? part : show(evaluateExpression(part, scope), part.source);
  return out;
}
