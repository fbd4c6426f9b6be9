import { SkeinError } from '@skein/spec';

const QUOTED = 60;

/**
 * An expression too deep or too long to evaluate safely. Refused when it is compiled (workflow
 * registration, `compileExpression`), never halfway through a run.
 */
export class ExpressionTooComplexError extends SkeinError<'EXPRESSION_TOO_COMPLEX'> {
  static override readonly errorName = 'ExpressionTooComplexError';
  readonly limit: 'depth' | 'tokens';
  readonly max: number;
  /** The character offset where the limit was crossed. */
  readonly position: number;

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
    this.position = position;
  }
}
