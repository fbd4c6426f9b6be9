import { ExpressionError } from '../errors/expression-error.js';
import { MAX_EXPRESSION_TOKENS } from './expression-limits.js';

export type Token =
  | { readonly type: 'number'; readonly value: number; readonly pos: number }
  | { readonly type: 'string'; readonly value: string; readonly pos: number }
  | { readonly type: 'ident'; readonly value: string; readonly pos: number }
  | { readonly type: 'op'; readonly value: string; readonly pos: number }
  | { readonly type: 'eof'; readonly pos: number };

const OPERATORS = [
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '<',
  '>',
  '!',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  '[',
  ']',
  ',',
  '.',
];
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** Splits an expression into tokens, ending with `eof`; refuses more than `MAX_EXPRESSION_TOKENS`. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    // Another token is about to start.
    if (tokens.length >= MAX_EXPRESSION_TOKENS)
      throw ExpressionError.tooComplex(source, 'tokens', MAX_EXPRESSION_TOKENS, i);
    const start = i;
    if (isDigit(c)) {
      while (i < source.length && isDigit(source[i]!)) i++;
      if (source[i] === '.' && isDigit(source[i + 1] ?? '')) {
        i++;
        while (i < source.length && isDigit(source[i]!)) i++;
      }
      tokens.push({ type: 'number', value: Number(source.slice(start, i)), pos: start });
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      let value = '';
      while (i < source.length && source[i] !== c) {
        if (source[i] === '\\') {
          const escaped = ESCAPES[source[i + 1] ?? ''];
          if (escaped === undefined)
            throw ExpressionError.syntax(source, i, 'Unknown escape sequence');
          value += escaped;
          i += 2;
        } else {
          value += source[i];
          i++;
        }
      }
      if (i >= source.length) throw ExpressionError.syntax(source, start, 'Unterminated string');
      i++;
      tokens.push({ type: 'string', value, pos: start });
      continue;
    }
    if (isIdentStart(c)) {
      while (i < source.length && (isIdentStart(source[i]!) || isDigit(source[i]!))) i++;
      tokens.push({ type: 'ident', value: source.slice(start, i), pos: start });
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw ExpressionError.syntax(source, i, `Unexpected character "${c}"`);
    tokens.push({ type: 'op', value: op, pos: start });
    i += op.length;
  }
  tokens.push({ type: 'eof', pos: source.length });
  return tokens;
}
