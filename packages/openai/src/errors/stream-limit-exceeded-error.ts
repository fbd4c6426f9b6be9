import { SkeinError } from '@skein/conversation';

/** A stream that goes past one of the accumulator's bounds (tool calls, argument length, choices). */
export class StreamLimitExceededError extends SkeinError {
  readonly limit: string;

  constructor(limit: string, max: number, where: string) {
    super('STREAM_LIMIT_EXCEEDED', `${where}: more than ${max} ${limit}`, {
      details: { limit, max, where },
    });
    this.limit = limit;
  }
}
