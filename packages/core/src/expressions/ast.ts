/** The parsed form of an expression. Evaluation walks it; nothing is ever compiled to JS. */
export type ExpressionNode =
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null }
  | { readonly kind: 'array'; readonly items: readonly ExpressionNode[] }
  | { readonly kind: 'path'; readonly segments: readonly (string | number)[] }
  | { readonly kind: 'unary'; readonly op: '!' | '-'; readonly operand: ExpressionNode }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOperator;
      readonly left: ExpressionNode;
      readonly right: ExpressionNode;
    };

export type BinaryOperator =
  | '||'
  | '&&'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'in'
  | 'not in'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%';

/** A parsed expression with its source, ready to evaluate many times. */
export interface CompiledExpression {
  readonly source: string;
  readonly ast: ExpressionNode;
}
