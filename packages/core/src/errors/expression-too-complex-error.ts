import { SkeinError } from '@skein/conversation';

const QUOTED = 60;

/**
 * An expression too deep or too long to evaluate safely. Refused when it is compiled (workflow
 * registration, `compileExpression`), never halfway through a run.
 */
export class ExpressionTooComplexError extends SkeinError {
  readonly limit: 'depth' | 'tokens';
  readonly max: number;

  constructor(expression: string, limit: 'depth' | 'tokens', max: number, position: number) {
    const start = expression.length > QUOTED ? `${expression.slice(0, QUOTED)}…` : expression;
    const what =
      limit === 'depth'
        ? `nests too deep (at most ${max} levels)`
        : `is too long (at most ${max} tokens)`;
    super(
      'EXPRESSION_TOO_COMPLEX',
      `Expression "${start}" (${expression.length} characters) ${what} (at position ${position}); split it into VARIABLE steps`,
      { details: { limit, max, position, length: expression.length } },
    );
    this.limit = limit;
    this.max = max;
  }
}
