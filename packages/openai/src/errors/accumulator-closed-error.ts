import { SkeinError } from '@skein/spec';

/** `push()` after `finish()`: the calls were already finalised and handed out. */
export class AccumulatorClosedError extends SkeinError<'ACCUMULATOR_CLOSED'> {
  static override readonly errorName = 'AccumulatorClosedError';
  constructor() {
    super(
      'ACCUMULATOR_CLOSED',
      'ToolCallAccumulator.push() was called after finish(); create a new accumulator per response',
    );
  }
}
