import { ExpressionError } from '../errors/expression-error.js';
import type { BinaryOperator, CompiledExpression, ExpressionNode } from './ast.js';
import { MAX_EXPRESSION_DEPTH } from './expression-limits.js';
import { type Token, tokenize } from './tokenizer.js';

// Grammar, loosest first:
//   or      := and (('||' | 'or') and)*
//   and     := not (('&&' | 'and') not)*
//   not     := 'not' not | compare
//   compare := additive (('=='|'!='|'<'|'<='|'>'|'>='|'in'|'not in') additive)?
//   additive:= term (('+'|'-') term)*
//   term    := unary (('*'|'/'|'%') unary)*
//   unary   := ('!'|'-') unary | primary
//   primary := number | string | true | false | null | path | '(' or ')' | '[' items ']'
//   path    := ident ('.' ident | '[' (number|string) ']')*

const KEYWORDS = new Set(['true', 'false', 'null', 'and', 'or', 'not', 'in']);
const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
// Reaching these through a path would expose the prototype chain.
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

class Parser {
  #i = 0;
  /** Open parentheses, lists and prefix operators around the current token: the recursion depth. */
  #nesting = 0;
  /** Depth of each node built, leaves excluded (they are 1): evaluation recurses this deep. */
  readonly #depths = new WeakMap<ExpressionNode, number>();
  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  parse(): ExpressionNode {
    if (this.#peek().type === 'eof') this.#fail(this.#peek(), 'Empty expression');
    const node = this.#or();
    const next = this.#peek();
    if (next.type !== 'eof') this.#fail(next, `Unexpected ${describe(next)}`);
    return node;
  }

  #peek(): Token {
    return this.tokens[this.#i]!;
  }

  #next(): Token {
    return this.tokens[this.#i++]!;
  }

  #isOp(value: string): boolean {
    const t = this.#peek();
    return t.type === 'op' && t.value === value;
  }

  #isWord(value: string): boolean {
    const t = this.#peek();
    return t.type === 'ident' && t.value === value;
  }

  #expectOp(value: string): void {
    const t = this.#next();
    if (t.type !== 'op' || t.value !== value)
      this.#fail(t, `Expected "${value}" but found ${describe(t)}`);
  }

  #fail(token: Token, problem: string): never {
    throw ExpressionError.syntax(this.source, token.pos, problem);
  }

  #tooDeep(token: Token): never {
    throw ExpressionError.tooComplex(this.source, 'depth', MAX_EXPRESSION_DEPTH, token.pos);
  }

  /** Parses one nested part, refusing to recurse deeper than evaluation may. */
  #nested<T>(token: Token, parse: () => T): T {
    if (++this.#nesting > MAX_EXPRESSION_DEPTH) this.#tooDeep(token);
    const node = parse();
    this.#nesting--;
    return node;
  }

  /** Records a new node's depth; `token` is where to point when it is too deep. */
  #node<T extends ExpressionNode>(node: T, children: readonly ExpressionNode[], token: Token): T {
    let deepest = 0;
    for (const child of children) deepest = Math.max(deepest, this.#depths.get(child) ?? 1);
    if (deepest + 1 > MAX_EXPRESSION_DEPTH) this.#tooDeep(token);
    this.#depths.set(node, deepest + 1);
    return node;
  }

  #or(): ExpressionNode {
    let left = this.#and();
    while (this.#isOp('||') || this.#isWord('or')) {
      const op = this.#next();
      const right = this.#and();
      left = this.#node({ kind: 'binary', op: '||', left, right }, [left, right], op);
    }
    return left;
  }

  #and(): ExpressionNode {
    let left = this.#not();
    while (this.#isOp('&&') || this.#isWord('and')) {
      const op = this.#next();
      const right = this.#not();
      left = this.#node({ kind: 'binary', op: '&&', left, right }, [left, right], op);
    }
    return left;
  }

  #not(): ExpressionNode {
    if (this.#isWord('not')) {
      const token = this.#next();
      const operand = this.#nested(token, () => this.#not());
      return this.#node({ kind: 'unary', op: '!', operand }, [operand], token);
    }
    return this.#compare();
  }

  #compare(): ExpressionNode {
    const left = this.#additive();
    const t = this.#peek();
    let op: BinaryOperator | undefined;
    if (t.type === 'op' && COMPARISONS.has(t.value)) op = t.value as BinaryOperator;
    else if (this.#isWord('in')) op = 'in';
    else if (
      this.#isWord('not') &&
      this.tokens[this.#i + 1]?.type === 'ident' &&
      (this.tokens[this.#i + 1] as { value: string }).value === 'in'
    ) {
      this.#next();
      op = 'not in';
    }
    if (!op) return left;
    const token = this.#next();
    const right = this.#additive();
    const after = this.#peek();
    if ((after.type === 'op' && COMPARISONS.has(after.value)) || this.#isWord('in'))
      this.#fail(after, 'Comparisons cannot be chained; use "and"');
    return this.#node({ kind: 'binary', op, left, right }, [left, right], token);
  }

  #additive(): ExpressionNode {
    let left = this.#term();
    while (this.#isOp('+') || this.#isOp('-')) {
      const token = this.#next();
      const op = (token as { value: string }).value as BinaryOperator;
      const right = this.#term();
      left = this.#node({ kind: 'binary', op, left, right }, [left, right], token);
    }
    return left;
  }

  #term(): ExpressionNode {
    let left = this.#unary();
    while (this.#isOp('*') || this.#isOp('/') || this.#isOp('%')) {
      const token = this.#next();
      const op = (token as { value: string }).value as BinaryOperator;
      const right = this.#unary();
      left = this.#node({ kind: 'binary', op, left, right }, [left, right], token);
    }
    return left;
  }

  #unary(): ExpressionNode {
    if (this.#isOp('!') || this.#isOp('-')) {
      const token = this.#next();
      const op = (token as { value: string }).value as '!' | '-';
      const operand = this.#nested(token, () => this.#unary());
      return this.#node({ kind: 'unary', op, operand }, [operand], token);
    }
    return this.#primary();
  }

  #primary(): ExpressionNode {
    const t = this.#next();
    switch (t.type) {
      case 'number':
      case 'string':
        return { kind: 'literal', value: t.value };
      case 'ident':
        if (t.value === 'true') return { kind: 'literal', value: true };
        if (t.value === 'false') return { kind: 'literal', value: false };
        if (t.value === 'null') return { kind: 'literal', value: null };
        if (KEYWORDS.has(t.value)) this.#fail(t, `Unexpected keyword "${t.value}"`);
        return this.#path(t);
      case 'op':
        if (t.value === '(') {
          const inner = this.#nested(t, () => this.#or());
          this.#expectOp(')');
          return inner;
        }
        if (t.value === '[') {
          const items = this.#nested(t, () => this.#items());
          this.#expectOp(']');
          return this.#node({ kind: 'array', items }, items, t);
        }
        return this.#fail(t, `Unexpected ${describe(t)}`);
      case 'eof':
        return this.#fail(t, 'Unexpected end of expression');
    }
  }

  #items(): ExpressionNode[] {
    const items: ExpressionNode[] = [];
    if (this.#isOp(']')) return items;
    items.push(this.#or());
    while (this.#isOp(',')) {
      this.#next();
      items.push(this.#or());
    }
    return items;
  }

  #path(first: Token & { type: 'ident' }): ExpressionNode {
    const segments: (string | number)[] = [this.#segment(first, first.value)];
    for (;;) {
      if (this.#isOp('.')) {
        this.#next();
        const t = this.#next();
        if (t.type !== 'ident')
          this.#fail(t, `Expected a property name after "." but found ${describe(t)}`);
        segments.push(this.#segment(t, t.value));
      } else if (this.#isOp('[')) {
        this.#next();
        const t = this.#next();
        if (t.type === 'number' && Number.isInteger(t.value)) segments.push(t.value);
        else if (t.type === 'string') segments.push(this.#segment(t, t.value));
        else this.#fail(t, 'Expected an integer or a string inside [ ]');
        this.#expectOp(']');
      } else if (this.#isOp('(')) {
        this.#fail(this.#peek(), 'Function calls are not allowed');
      } else {
        return { kind: 'path', segments };
      }
    }
  }

  #segment(token: Token, name: string): string {
    if (FORBIDDEN_SEGMENTS.has(name)) this.#fail(token, `Property "${name}" is not accessible`);
    return name;
  }
}

function describe(t: Token): string {
  if (t.type === 'eof') return 'end of expression';
  return `"${String(t.value)}"`;
}

/**
 * Parses an expression once; evaluate the result as often as needed. Throws an `ExpressionError`:
 * `EXPRESSION_SYNTAX`, or `EXPRESSION_TOO_COMPLEX` past `MAX_EXPRESSION_DEPTH` levels of nesting
 * or `MAX_EXPRESSION_TOKENS` tokens.
 */
export function compileExpression(source: string): CompiledExpression {
  if (typeof source !== 'string')
    throw ExpressionError.syntax(String(source), 0, 'Expression must be a string');
  return { source, ast: new Parser(source, tokenize(source)).parse() };
}
