import { SkeinError } from '@skein/conversation';

/** `push()` after `finish()`: the calls were already finalised and handed out. */
export class AccumulatorClosedError extends SkeinError {
  constructor() {
    super(
      'ACCUMULATOR_CLOSED',
      'ToolCallAccumulator.push() was called after finish(); create a new accumulator per response',
    );
  }
}
