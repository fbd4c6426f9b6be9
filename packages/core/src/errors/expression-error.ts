import { SkeinError } from '@skein/conversation';

/** An expression that does not parse. `position` is the 0-based character offset of the problem. */
export class ExpressionSyntaxError extends SkeinError {
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

/** An expression that parsed but cannot be evaluated (arithmetic on a non-number, …). */
export class ExpressionEvaluationError extends SkeinError {
  constructor(expression: string, problem: string) {
    super('EXPRESSION_EVALUATION', `Cannot evaluate "${expression}": ${problem}`, {
      details: { expression, problem },
    });
  }
}
