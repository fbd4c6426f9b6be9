import { SkeinError } from '@skein/spec';
import { describeValue, jsonSafe } from '../json/describe-value.js';

/**
 * A tool-call fragment whose `index` is not a usable position: negative, fractional, not a number,
 * or beyond the accumulator's bound. Such an index would silently merge or lose calls.
 */
export class InvalidToolCallIndexError extends SkeinError<'INVALID_TOOL_CALL_INDEX'> {
  static override readonly errorName = 'InvalidToolCallIndexError';
  readonly index: unknown;

  constructor(index: unknown, where: string, maxIndex: number) {
    super(
      'INVALID_TOOL_CALL_INDEX',
      `Tool-call index ${describeValue(index)} at ${where} is not an integer in 0..${maxIndex}`,
      { details: { index: jsonSafe(index), where, maxIndex } },
    );
    this.index = jsonSafe(index);
  }
}
