import { SkeinError } from '@skein/spec';

/** An expression that does not parse. `position` is the 0-based character offset of the problem. */
export class ExpressionSyntaxError extends SkeinError<'EXPRESSION_SYNTAX'> {
  static override readonly errorName = 'ExpressionSyntaxError';
  readonly expression: string;
  readonly position: number;

  constructor(expression: string, position: number, problem: string) {
    super('EXPRESSION_SYNTAX', `${problem} at position ${position} in expression "${expression}"`, {
      details: { expression, position, problem },
    });
    this.expression = expression;
    this.position = position;
  }
}
