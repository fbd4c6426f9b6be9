import { SkeinError } from '@skein/spec';
import { describeValue, jsonSafe } from '../json/describe-value.js';

/** A choice whose `index` is not an integer in `0..maxIndex`. */
export class InvalidChoiceIndexError extends SkeinError<'INVALID_CHOICE_INDEX'> {
  static override readonly errorName = 'InvalidChoiceIndexError';
  readonly index: unknown;

  constructor(index: unknown, where: string, maxIndex: number) {
    super(
      'INVALID_CHOICE_INDEX',
      `Choice index ${describeValue(index)} at ${where} is not an integer in 0..${maxIndex}`,
      { details: { index: jsonSafe(index), where, maxIndex } },
    );
    this.index = jsonSafe(index);
  }
}
