import { SkeinError } from '@skein/spec';

/** An expression that parsed but cannot be evaluated (arithmetic on a non-number, …). */
export class ExpressionEvaluationError extends SkeinError<'EXPRESSION_EVALUATION'> {
  static override readonly errorName = 'ExpressionEvaluationError';
  readonly expression: string;
  readonly problem: string;

  constructor(expression: string, problem: string) {
    super('EXPRESSION_EVALUATION', `Cannot evaluate "${expression}": ${problem}`, {
      details: { expression, problem },
    });
    this.expression = expression;
    this.problem = problem;
  }
}
