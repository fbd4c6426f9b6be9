import { SkeinError } from '@skein/spec';

/** A stream that goes past one of the accumulator's bounds (tool calls, argument length, choices). */
export class StreamLimitExceededError extends SkeinError<'STREAM_LIMIT_EXCEEDED'> {
  static override readonly errorName = 'StreamLimitExceededError';
  readonly limit: string;
  readonly max: number;
  readonly where: string;

  constructor(limit: string, max: number, where: string) {
    super('STREAM_LIMIT_EXCEEDED', `${where}: more than ${max} ${limit}`, {
      details: { limit, max, where },
    });
    this.limit = limit;
    this.max = max;
    this.where = where;
  }
}
