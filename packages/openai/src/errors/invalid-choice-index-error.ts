import { SkeinError } from '@skein/conversation';

/** A choice whose `index` is not an integer in `0..maxIndex`. */
export class InvalidChoiceIndexError extends SkeinError {
  readonly index: unknown;

  constructor(index: unknown, where: string, maxIndex: number) {
    super(
      'INVALID_CHOICE_INDEX',
      `Choice index ${JSON.stringify(index) ?? String(index)} at ${where} is not an integer in 0..${maxIndex}`,
      { details: { index, where, maxIndex } },
    );
    this.index = index;
  }
}
