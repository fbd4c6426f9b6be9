import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

const QUOTED = 60;

/**
 * - `EXPRESSION_SYNTAX`: an expression that does not parse; `position` is the 0-based character
 *   offset of the problem.
 * - `EXPRESSION_EVALUATION`: an expression that parsed but cannot be evaluated (arithmetic on a
 *   non-number, …).
 * - `EXPRESSION_TOO_COMPLEX`: an expression too deep or too long to evaluate safely (`limit`,
 *   `max`). Refused when it is compiled (workflow registration, `compileExpression`), never
 *   halfway through a run.
 */
export type ExpressionErrorCode =
  | 'EXPRESSION_SYNTAX'
  | 'EXPRESSION_EVALUATION'
  | 'EXPRESSION_TOO_COMPLEX';

/** What an ExpressionError can say; each code has some of these (see the factories). */
export interface ExpressionErrorFacts {
  /** The expression's text (`EXPRESSION_SYNTAX`, `EXPRESSION_EVALUATION`). */
  readonly expression?: string;
  /** The character offset of the problem, or where the limit was crossed. */
  readonly position?: number;
  /** What is wrong with it (`EXPRESSION_SYNTAX`, `EXPRESSION_EVALUATION`). */
  readonly problem?: string;
  /** Which limit it crossed (`EXPRESSION_TOO_COMPLEX`). */
  readonly limit?: 'depth' | 'tokens';
  /** That limit: levels of nesting or tokens (`EXPRESSION_TOO_COMPLEX`). */
  readonly max?: number;
}

/** An expression (an edge condition, a trigger, a template, a VARIABLE step) that cannot be run. */
export class ExpressionError<
  Code extends ExpressionErrorCode = ExpressionErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'ExpressionError';
  declare readonly expression?: string;
  declare readonly position?: number;
  declare readonly problem?: string;
  declare readonly limit?: 'depth' | 'tokens';
  declare readonly max?: number;

  /** The facts given become fields, and `details` unless `options.details` is given. */
  constructor(
    code: Code,
    message: string,
    facts: ExpressionErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  static syntax(
    expression: string,
    position: number,
    problem: string,
  ): ExpressionError<'EXPRESSION_SYNTAX'> {
    return new ExpressionError(
      'EXPRESSION_SYNTAX',
      `${problem} at position ${position} in expression "${expression}"`,
      { expression, position, problem },
    );
  }

  static evaluation(expression: string, problem: string): ExpressionError<'EXPRESSION_EVALUATION'> {
    return new ExpressionError(
      'EXPRESSION_EVALUATION',
      `Cannot evaluate "${expression}": ${problem}`,
      { expression, problem },
    );
  }

  /** `position`: the character offset where the limit was crossed. */
  static tooComplex(
    expression: string,
    limit: 'depth' | 'tokens',
    max: number,
    position: number,
  ): ExpressionError<'EXPRESSION_TOO_COMPLEX'> {
    const start = expression.length > QUOTED ? `${expression.slice(0, QUOTED)}…` : expression;
    const what =
      limit === 'depth'
        ? `nests too deep (at most ${max} levels)`
        : `is too long (at most ${max} tokens)`;
    return new ExpressionError(
      'EXPRESSION_TOO_COMPLEX',
      `Expression "${start}" (${expression.length} characters) ${what} (at position ${position}); split it into VARIABLE steps`,
      { limit, max, position },
      { details: { limit, max, position, length: expression.length } },
    );
  }
}
